x/ir/printer.o: ir/printer.c ir/ir.h ir/ops.def

ir/ir.h:

ir/ops.def:
