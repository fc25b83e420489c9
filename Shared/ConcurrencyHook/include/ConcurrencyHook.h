#ifndef BINARIO_CONCURRENCY_HOOK_H
#define BINARIO_CONCURRENCY_HOOK_H

/// The address of the Swift runtime's `swift_task_enqueueGlobal_hook`, resolved when the
/// executable is linked.
///
/// SwiftNIO finds the hook with `dlsym`, which fails when the Swift runtime is linked statically
/// (`--static-swift-stdlib`, as in the container image): the static runtime's symbols are not
/// exported. ServiceKit's `EventLoopConcurrency` then installs NIO's event loops through this
/// address instead.
void *_Nullable *_Nonnull binario_swift_task_enqueueGlobal_hook_address(void);

#endif
