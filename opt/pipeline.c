/*
 * pipeline.c - the default pipelines of -O0..-O2, in one place.
 *
 * -O0 makes the module executable by the memory planner and code
 * generator: ops lowered, outputs explicit, lifetimes marked.  Higher
 * levels add cleanup (-O1) and fusion (-O2).  There is no -O3: no pass
 * beyond -O2's makes the generated code faster, and a level that ran -O2
 * under another name would promise what it does not do (the driver
 * refuses it).
 */
#include <assert.h>

#include "opt.h"

static const char *const o0[] = {
    "Normalize", "LegalizeOps", "ToNonDataflow", "RemovePurityChecking",
    "CallTIRRewrite", "LiftWorkspaces", "KillAfterLastUse",
};

static const char *const o1[] = {
    "Normalize", "BindParams", "DecomposeOpsForInference", "FakeQuantizationToInteger",
    "FoldConstant", "DeadCodeElimination", "LegalizeOps",
    "ToNonDataflow", "RemovePurityChecking", "CallTIRRewrite", "LiftWorkspaces", "KillAfterLastUse",
};

static const char *const o2[] = {
    "Normalize", "BindParams", "DecomposeOpsForInference", "CanonicalizeBindings",
    "FakeQuantizationToInteger", "FoldConstant", "DeadCodeElimination",
    "LegalizeOps", "FuseOps", "FuseTIR", "DeadCodeElimination", "ToNonDataflow",
    "RemovePurityChecking", "CallTIRRewrite", "LiftWorkspaces", "KillAfterLastUse",
};

int
opt_pipeline(int level, const OptPass **out, int max)
{
  assert(level >= 0 && level <= OPT_LEVEL_MAX);
  const char *const *names = level <= 0 ? o0 : level == 1 ? o1 : o2;
  int n = level <= 0 ? (int)(sizeof o0 / sizeof o0[0])
          : level == 1 ? (int)(sizeof o1 / sizeof o1[0])
                       : (int)(sizeof o2 / sizeof o2[0]);
  for (int i = 0; i < n && i < max; i++)
    out[i] = opt_pass_find(names[i]);
  return n;
}
