x/ir/wellformed.o: ir/wellformed.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
