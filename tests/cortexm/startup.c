/*
 * startup.c - the start-up code of the Cortex-M4 test image: the vector
 * table, the reset handler and a fault handler.  No CMSIS, no libc.
 *
 * Key idea: a Cortex-M core boots by loading its stack pointer from word 0
 * of the vector table and jumping to the reset handler in word 1 (Armv7-M
 * ARM, B1.5.5), so plain C is enough: the reset handler copies .data from
 * its load address in SSRAM1 (where "flash" is on the MPS2) to its run
 * address in SSRAM2/3, zeroes .bss, turns the FPU on and calls the test.
 * The symbols come from mps2.ld.
 */
#include "platform.h"

typedef unsigned int word;

extern word _sidata[], _sdata[], _edata[], _sbss[], _ebss[];
extern char _stack_top[];

void reset_handler(void);
static void fault_handler(void);

/* Word 0 the initial stack pointer, then the 15 system exceptions of the
 * Armv7-M; the test enables no interrupt, so no IRQ entries follow. */
struct vector_table {
  void *initial_sp;
  void (*handler[15])(void);
};

__attribute__((section(".vectors"), used)) static const struct vector_table vectors = {
    _stack_top,
    {
        reset_handler, /* reset */
        fault_handler, /* NMI */
        fault_handler, /* HardFault */
        fault_handler, /* MemManage */
        fault_handler, /* BusFault */
        fault_handler, /* UsageFault: also an FPU instruction with the FPU off */
        0, 0, 0, 0,    /* reserved */
        fault_handler, /* SVCall */
        fault_handler, /* DebugMonitor */
        0,             /* reserved */
        fault_handler, /* PendSV */
        fault_handler, /* SysTick */
    }};

/* CPACR (Armv7-M ARM, B3.2.20): full access to coprocessors 10 and 11, the
 * FPU; the DSB/ISB pair makes it take effect before any FP instruction.
 * Only in a build with an FPU (__ARM_FP): a -mfloat-abi=soft image runs
 * with it off, so an FP instruction there would fault (UsageFault). */
#ifdef __ARM_FP
static void
fpu_enable(void)
{
  volatile word *cpacr = (volatile word *)0xE000ED88u;
  *cpacr |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
}
#endif

/* Word loops, not memcpy/memset: nothing here may need a library (and
 * -ffreestanding keeps gcc from turning them into those calls). */
void
reset_handler(void)
{
  word *src = _sidata, *dst = _sdata;
  while (dst < _edata)
    *dst++ = *src++;
  for (dst = _sbss; dst < _ebss; dst++)
    *dst = 0;
#ifdef __ARM_FP
  fpu_enable();
#endif
  platform_exit(test_main());
}

static void
fault_handler(void)
{
  platform_write("fault: the test image took an exception\n");
  platform_exit(1);
}
