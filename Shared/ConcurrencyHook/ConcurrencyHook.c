#include "ConcurrencyHook.h"

// Defined by the Swift concurrency runtime (libswift_Concurrency), static or shared.
extern void *swift_task_enqueueGlobal_hook;

void **binario_swift_task_enqueueGlobal_hook_address(void) {
  return &swift_task_enqueueGlobal_hook;
}
