x/ir/node.o: ir/node.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
