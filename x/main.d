x/main.o: main.c frontend/fe.h frontend/../ir/ir.h frontend/../ir/ops.def \
  ir/ir.h

frontend/fe.h:

frontend/../ir/ir.h:

frontend/../ir/ops.def:

ir/ir.h:
