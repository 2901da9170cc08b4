x/ir/equal.o: ir/equal.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
