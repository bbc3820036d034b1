/*===- Fiber.S - Switching between GPU threads on one OS thread ----------===*
 *
 * Part of gpuad.
 *
 * x86-64 System V.  gpuad_emu_switch(from, to) saves the callee-saved
 * registers on the current stack, stores the stack pointer in *from, and
 * resumes the stack `to` the same way; a new fiber's stack is prepared so
 * that resuming it enters gpuad_emu_fiber_start with the fiber in %r12.
 *===----------------------------------------------------------------------===*/

        .text
        .globl  gpuad_emu_switch
        .type   gpuad_emu_switch,@function
gpuad_emu_switch:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   gpuad_emu_switch, .-gpuad_emu_switch

        .globl  gpuad_emu_fiber_start
        .type   gpuad_emu_fiber_start,@function
gpuad_emu_fiber_start:
        movq    %r12, %rdi
        andq    $-16, %rsp
        call    gpuad_emu_fiber_main
        ud2
        .size   gpuad_emu_fiber_start, .-gpuad_emu_fiber_start

        .section .note.GNU-stack,"",@progbits
