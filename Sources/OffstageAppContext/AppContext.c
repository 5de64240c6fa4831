// Which app the calling thread runs, kept per thread. See OffstageAppContext.h.
#include "OffstageAppContext.h"

#include <stdlib.h>

static _Thread_local offstage_host *current_host;
static _Thread_local void *current_queue;
/// On a thread the app's code started: the host of that app (the thread itself runs outside it).
static _Thread_local offstage_host *starting_host;
/// Told when threads the app started begin and end (see offstage_set_app_thread_hook).
static void (*app_thread_hook)(int);
static void (*foreign_enqueue)(offstage_host *, void *, int64_t, void *, void (*)(void *));

void offstage_enter(offstage_host *host, void *queue) {
    current_host = host;
    current_queue = queue;
}

void offstage_leave(void) {
    current_host = NULL;
    current_queue = NULL;
}

offstage_host *offstage_current_host(void) { return current_host; }

void *offstage_current_queue(void) { return current_queue; }

// MARK: Capturing a queue

/// What a capture saw: the first piece of work queued while it ran.
typedef struct {
    void *queue;
    void (*function)(void *);
    void *argument;
} captured_work;

static void capture_enqueue(void *owner, void *queue, int64_t delay, void *context, void (*function)(void *)) {
    (void)delay;
    captured_work *captured = owner;
    if (captured->queue) return;
    *captured = (captured_work){queue, function, context};
}

void offstage_capture_dispatch(
    void *context, void (*body)(void *), void **queue, void (**function)(void *), void **argument) {
    captured_work captured = {NULL, NULL, NULL};
    offstage_host capturing = {.owner = &captured, .enqueue = capture_enqueue};
    offstage_host *previous_host = current_host;
    void *previous_queue = current_queue;
    current_host = &capturing;
    body(context);
    current_host = previous_host;
    current_queue = previous_queue;
    *queue = captured.queue;
    *function = captured.function;
    *argument = captured.argument;
}

// MARK: Threads the app's code starts

void offstage_set_app_thread_hook(void (*hook)(int)) { app_thread_hook = hook; }

void offstage_set_foreign_enqueue(void (*hook)(offstage_host *, void *, int64_t, void *, void (*)(void *))) {
    foreign_enqueue = hook;
}

int offstage_thread_started_by_app(void) { return starting_host != NULL; }

void offstage_app_thread_stopped(void) {
    if (!starting_host) return;
    starting_host = NULL;
    if (app_thread_hook) app_thread_hook(-1);
}

/// What a thread started by app code begins with: the routine, its argument, and the host of the app.
typedef struct {
    void *(*routine)(void *);
    void *argument;
    offstage_host *host;
} app_thread_start;

static void *start_app_thread(void *pointer) {
    app_thread_start start = *(app_thread_start *)pointer;
    free(pointer);
    starting_host = start.host;
    void *result = start.routine(start.argument);
    offstage_app_thread_stopped();
    return result;
}

int offstage_app_thread_start(
    void *(*routine)(void *), void *argument, void *(**start_routine)(void *), void **start_argument) {
    offstage_host *host = current_host ? current_host : starting_host;
    if (!host) return 0;
    app_thread_start *start = malloc(sizeof(app_thread_start));
    *start = (app_thread_start){routine, argument, host};
    if (app_thread_hook) app_thread_hook(1);
    *start_routine = start_app_thread;
    *start_argument = start;
    return 1;
}

int offstage_enqueue_foreign(void *queue, int64_t delay, void *context, void (*function)(void *)) {
    if (!starting_host || !foreign_enqueue) return 0;
    foreign_enqueue(starting_host, queue, delay, context, function);
    return 1;
}
