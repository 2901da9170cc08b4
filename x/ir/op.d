x/ir/op.o: ir/op.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
