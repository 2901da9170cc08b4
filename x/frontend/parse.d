x/frontend/parse.o: frontend/parse.c frontend/fe.h frontend/../ir/ir.h \
  frontend/../ir/ops.def

frontend/fe.h:

frontend/../ir/ir.h:

frontend/../ir/ops.def:
