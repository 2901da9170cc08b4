/*
 * host_x86_64.c - platform.h and the program entry for a host executable
 * linked with -nostdlib -static on x86_64 Linux: no libc, no crt files.
 *
 * Key idea: the kernel starts a static executable at _start with the stack
 * pointer 16-byte aligned and nothing else set up, so a few instructions
 * suffice: clear the frame pointer, keep the alignment the System V ABI
 * wants at a call, call test_main and pass its result to exit_group.  Text
 * goes out with the write system call.  Linux x86_64 system call numbers:
 * write 1, exit_group 231 (arch/x86/entry/syscalls/syscall_64.tbl).
 */
#include "platform.h"

#define SYS_WRITE 1
#define SYS_EXIT_GROUP 231

__asm__(".text\n"
        ".globl _start\n"
        "_start:\n"
        "\txor %ebp, %ebp\n"
        "\tand $-16, %rsp\n"
        "\tcall test_main\n"
        "\tmov %eax, %edi\n"
        "\tmov $231, %eax\n"
        "\tsyscall\n"
        "\thlt\n");

static long
syscall3(long number, long a, long b, long c)
{
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(number), "D"(a), "S"(b), "d"(c)
                   : "rcx", "r11", "memory");
  return ret;
}

void
platform_write(const char *s)
{
  long len = 0;
  while (s[len])
    len++;
  while (len > 0) {
    long n = syscall3(SYS_WRITE, 1, (long)s, len);
    if (n <= 0)
      return;
    s += n;
    len -= n;
  }
}

void
platform_exit(int status)
{
  syscall3(SYS_EXIT_GROUP, status, 0, 0);
  for (;;)
    ;
}
