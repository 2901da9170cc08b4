x/ir/base.o: ir/base.c ir/ir_int.h ir/ir.h ir/ops.def

ir/ir_int.h:

ir/ir.h:

ir/ops.def:
