/* test_op_table.c - the operator table (ops/table.c): every entry is found
 * by its id and by its names, the generated IrOpId agrees with the
 * entries, names are unique, parameters are sane and the flags say what
 * FoldConstant and the passes rely on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../ops/op.h"

static void
test_every_entry(void **state)
{
  (void)state;
  for (int i = 0; i < IR_OP_COUNT; i++) {
    const OpDef *d = op_def((IrOpId)i);
    assert_non_null(d);
    assert_int_equal(d->syn.id, i); /* the enum and the tables agree */
    assert_ptr_equal(op_of(&d->syn), d);
    assert_ptr_equal(op_impl((IrOpId)i), &d->impl);
    const char *name = d->syn.name;
    assert_non_null(name);
    assert_true(strncmp(name, "relax.", 6) == 0 && name[6] != '\0');
    /* found by both names, which no other entry has */
    char script[96];
    snprintf(script, sizeof script, "R.%s", name + 6);
    assert_ptr_equal(op_find(name), d);
    assert_ptr_equal(op_find(script), d);
    for (int j = 0; j < i; j++)
      assert_string_not_equal(op_def((IrOpId)j)->syn.name, name);
    /* parameters: nparams of them, named, distinct; none after */
    assert_in_range(d->syn.nparams, 0, IR_OP_MAX_PARAMS);
    for (int k = 0; k < IR_OP_MAX_PARAMS; k++) {
      const IrOpParam *p = &d->syn.params[k];
      if (k >= d->syn.nparams) {
        assert_null(p->name);
        continue;
      }
      assert_non_null(p->name);
      assert_in_range(p->kind, IR_PARAM_EXPR, IR_PARAM_SINFO);
      for (int m = 0; m < k; m++)
        assert_string_not_equal(d->syn.params[m].name, p->name);
    }
    /* an op that is evaluated or lowered is typed first */
    if (d->impl.eval || d->impl.legalize)
      assert_non_null(d->impl.infer);
    /* a kill is an effect */
    if (d->flags & OP_KILL)
      assert_true(d->syn.impure);
  }
}

static void
test_lookup(void **state)
{
  (void)state;
  assert_null(op_def(IR_OP_COUNT));
  assert_null(op_def((IrOpId)-1));
  assert_ptr_equal(op_find("R.nn.conv2d"), op_def(IR_OP_CONV2D));
  assert_ptr_equal(op_find("relax.nn.conv2d"), op_def(IR_OP_CONV2D));
  assert_true(op_find("R.memory.kill_tensor")->syn.impure);
  assert_true(op_find("R.memory.kill_tensor")->flags & OP_KILL);
  assert_false(op_find("R.memory.alloc_storage")->syn.impure);
  assert_true(op_find("R.memory.alloc_storage")->flags & OP_NO_FOLD);
  assert_false(op_find("R.add")->flags & OP_NO_FOLD);
  assert_null(op_find("R.no_such_op"));
  assert_null(op_find("relax.nn"));
  assert_null(op_find("R."));
  assert_null(op_find("nn.relu"));
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_entry),
      cmocka_unit_test(test_lookup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
