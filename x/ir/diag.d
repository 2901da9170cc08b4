x/ir/diag.o: ir/diag.c ir/ir_int.h ir/ir.h ir/ops.def

ir/ir_int.h:

ir/ir.h:

ir/ops.def:
