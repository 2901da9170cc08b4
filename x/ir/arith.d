x/ir/arith.o: ir/arith.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
