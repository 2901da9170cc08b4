/*
 * semihost.c - platform.h over Arm semihosting, for qemu's
 * `-semihosting-config enable=on,target=native`.
 *
 * Key idea: a semihosting call is `bkpt 0xab` in Thumb state with the
 * operation in r0 and its argument in r1 (Arm's "Semihosting for AArch32
 * and AArch64", version 2.0).  SYS_WRITE0 (0x04) prints a NUL-terminated
 * string; SYS_EXIT (0x18) takes, on AArch32, the reason code itself in r1:
 * ADP_Stopped_ApplicationExit (0x20026) makes qemu exit with status 0,
 * any other reason with status 1.
 */
#include "platform.h"

#define SYS_WRITE0 0x04
#define SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define ADP_STOPPED_RUN_TIME_ERROR 0x20023

static int
semihost_call(int op, const void *arg)
{
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void
platform_write(const char *s)
{
  semihost_call(SYS_WRITE0, s);
}

void
platform_exit(int status)
{
  int reason = status == 0 ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUN_TIME_ERROR;
  semihost_call(SYS_EXIT, (const void *)(unsigned long)reason);
  for (;;)
    ; /* not reached when a debugger or qemu handles semihosting */
}
