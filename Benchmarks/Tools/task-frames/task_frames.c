// Prints a task's async frames whenever it is deeper than ever before (in steps of 1.5 KB past
// TASK_FRAMES_THRESHOLD bytes, 4000 by default): each frame's size and the code that allocated
// it, to /tmp/task-frames-<pid>.txt. Preloaded into a release executable, it interposes Swift's
// task allocator (swift_task_alloc and swift_task_dealloc from libswift_Concurrency.so).
// Build: cc -O1 -shared -fPIC -o task_frames.so task_frames.c -ldl. See README.md.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef void *(*alloc_fn)(size_t);
typedef void (*dealloc_fn)(void *);
typedef void *(*current_fn)(void);

enum { DEPTH = 256, SLOTS = 65536, STEP = 1500 };

// One task's live allocations, oldest first (the task allocator is a stack).
struct task_frames {
  void *task;
  int count;
  size_t total, printed;
  size_t sizes[DEPTH];
  void *callers[DEPTH], *pointers[DEPTH];
};

static alloc_fn real_alloc;
static dealloc_fn real_dealloc;
static current_fn current_task;
static struct task_frames *tasks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t threshold = 4000;
static FILE *out;

static void start(void) {
  real_alloc = (alloc_fn)dlsym(RTLD_NEXT, "swift_task_alloc");
  real_dealloc = (dealloc_fn)dlsym(RTLD_NEXT, "swift_task_dealloc");
  current_task = (current_fn)dlsym(RTLD_NEXT, "swift_task_getCurrent");
  tasks = calloc(SLOTS, sizeof(struct task_frames));
  const char *given = getenv("TASK_FRAMES_THRESHOLD");
  if (given) threshold = (size_t)atol(given);
  char name[64];
  snprintf(name, sizeof name, "/tmp/task-frames-%d.txt", getpid());
  out = fopen(name, "w");
}

// The task's entry (open addressing; a finished task's address may be reused by a new task).
static struct task_frames *frames_of(void *task) {
  size_t start_slot = ((uintptr_t)task >> 4) % SLOTS;
  for (size_t i = 0; i < SLOTS; i++) {
    struct task_frames *entry = &tasks[(start_slot + i) % SLOTS];
    if (entry->task == task) return entry;
    if (entry->task == NULL) {
      entry->task = task;
      return entry;
    }
  }
  return NULL;
}

static void print(struct task_frames *entry) {
  fprintf(out, "TASK %p depth %zu bytes in %d frames\n", entry->task, entry->total, entry->count);
  for (int i = 0; i < entry->count; i++) {
    Dl_info info;
    const char *file = "?";
    uintptr_t offset = 0;
    if (dladdr(entry->callers[i], &info)) {
      file = info.dli_fname;
      offset = (uintptr_t)entry->callers[i] - (uintptr_t)info.dli_fbase;
    }
    fprintf(out, "  %6zu %s 0x%lx\n", entry->sizes[i], file, (unsigned long)offset);
  }
  fflush(out);
}

void *swift_task_alloc(size_t size) {
  if (!real_alloc) start();
  void *pointer = real_alloc(size);
  void *task = current_task();
  void *caller = __builtin_return_address(0);
  pthread_mutex_lock(&lock);
  struct task_frames *entry = frames_of(task);
  if (entry && entry->count < DEPTH) {
    entry->sizes[entry->count] = size;
    entry->callers[entry->count] = caller;
    entry->pointers[entry->count] = pointer;
    entry->count++;
    entry->total += size;
    if (out && entry->total > threshold && entry->total > entry->printed + STEP) {
      entry->printed = entry->total;
      print(entry);
    }
  }
  pthread_mutex_unlock(&lock);
  return pointer;
}

void swift_task_dealloc(void *pointer) {
  if (!real_alloc) start();
  void *task = current_task();
  pthread_mutex_lock(&lock);
  struct task_frames *entry = frames_of(task);
  if (entry) {
    for (int i = entry->count - 1; i >= 0; i--) {
      if (entry->pointers[i] != pointer) continue;
      for (int j = i; j < entry->count; j++) entry->total -= entry->sizes[j];
      entry->count = i;
      break;
    }
  }
  pthread_mutex_unlock(&lock);
  real_dealloc(pointer);
}
