x/ir/dtype.o: ir/dtype.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
