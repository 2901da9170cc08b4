/*
 * platform.h - the two things the test program needs from where it runs:
 * writing text and stopping with a status.
 *
 * Key idea: main.c is the same on every target; semihost.c implements
 * these with Arm semihosting (Cortex-M under qemu), host_x86_64.c with
 * raw Linux system calls (a -nostdlib host executable).  Neither uses libc.
 */
#ifndef RXC_TEST_PLATFORM_H
#define RXC_TEST_PLATFORM_H

/* Writes the NUL-terminated string s to the console (no newline added). */
void platform_write(const char *s);
/* Stops the program: status 0 is success, anything else failure. */
void platform_exit(int status) __attribute__((noreturn));

/* The test program, called by the start-up code; returns the exit status. */
int test_main(void);

#endif
