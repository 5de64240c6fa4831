// libdispatch's enqueue, wait and assert functions, libc's clocks and sleeps, and CoreFoundation's run loop,
// defined in the executable so that they come before the shared libraries' (ELF symbol interposition). Linked
// only into hosts that run simulated app code in-process (the simulator and what embeds it). See
// OffstageAppExecution.h.
#ifndef __linux__
#error "OffstageAppExecution interposes ELF symbols and reads Linux's dispatch_time encoding: it builds on Linux \
only (docs/architecture.md says what macOS would take)"
#endif
#define _GNU_SOURCE
#include "OffstageAppExecution.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef void *queue_t;
typedef void *group_t;
typedef void *semaphore_t;
/// A block (the Blocks ABI's layout): called through its `invoke` function, copied and released by the runtime.
typedef struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(struct block_layout *);
} *block_t;
extern void *_Block_copy(const void *);
extern void _Block_release(const void *);
typedef void (*function_t)(void *);
typedef uint64_t dispatch_time_value;

extern struct dispatch_queue_s _dispatch_main_q;

void *offstage_main_queue(void) { return &_dispatch_main_q; }

// MARK: The real functions (found at load, below)

static void (*real_async)(queue_t, block_t);
static void (*real_async_f)(queue_t, void *, function_t);
static void (*real_barrier_async)(queue_t, block_t);
static void (*real_barrier_async_f)(queue_t, void *, function_t);
static void (*real_after)(dispatch_time_value, queue_t, block_t);
static void (*real_after_f)(dispatch_time_value, queue_t, void *, function_t);
static void (*real_group_async)(group_t, queue_t, block_t);
static void (*real_group_async_f)(group_t, queue_t, void *, function_t);
static void (*real_group_notify)(group_t, queue_t, block_t);
static void (*real_group_notify_f)(group_t, queue_t, void *, function_t);
static void (*real_group_enter)(group_t);
static void (*real_group_leave)(group_t);
static long (*real_group_wait)(group_t, dispatch_time_value);
static void (*real_sync)(queue_t, block_t);
static void (*real_sync_f)(queue_t, void *, function_t);
static void (*real_barrier_sync)(queue_t, block_t);
static void (*real_barrier_sync_f)(queue_t, void *, function_t);
static long (*real_semaphore_wait)(semaphore_t, dispatch_time_value);
static void (*real_apply)(size_t, queue_t, block_t);
static void (*real_apply_f)(size_t, queue_t, void *, void (*)(void *, size_t));
static void (*real_assert_queue)(queue_t);
static int (*real_clock_gettime)(clockid_t, struct timespec *);
static int (*real_gettimeofday)(struct timeval *, void *);
static time_t (*real_time)(time_t *);
static int (*real_nanosleep)(const struct timespec *, struct timespec *);
static int (*real_clock_nanosleep)(clockid_t, int, const struct timespec *, struct timespec *);
static void *(*real_source_create)(const void *, uintptr_t, uintptr_t, queue_t);
static void (*real_source_set_timer)(void *, dispatch_time_value, uint64_t, uint64_t);
static void (*real_source_set_event_handler)(void *, block_t);
static void (*real_source_set_event_handler_f)(void *, function_t);
static void (*real_source_set_cancel_handler)(void *, block_t);
static void (*real_source_set_cancel_handler_f)(void *, function_t);
static void (*real_source_cancel)(void *);
static void (*real_activate)(void *);
static void (*real_resume)(void *);
static void (*real_suspend)(void *);
static unsigned char (*real_is_main_thread)(void);
static void *(*real_run_loop_get_current)(void);
static void *(*real_run_loop_get_main)(void);
static void (*real_run_loop_add_timer)(void *, void *, const void *);
static void (*real_run_loop_timer_set_next_fire_date)(void *, double);
static void (*real_run_loop_perform_block)(void *, const void *, block_t);
static pthread_t (*real_thread_create)(pthread_attr_t, void *(*)(void *), void *);
/// Used, not interposed.
static void *(*get_global_queue)(long, unsigned long);
static const char *(*queue_get_label)(void *);
static void *(*get_context)(void *);
static void (*run_loop_timer_get_context)(void *, void *);
static const void *timer_source_type;

void *offstage_background_queue(void) {
    static void *queue;
    if (!queue) queue = get_global_queue(0, 0);
    return queue;
}

const char *offstage_queue_label(void *queue) {
    const char *label = queue_get_label(queue);
    return label ? label : "";
}

// MARK: Blocks as functions

static void call_block(void *block) { ((block_t)block)->invoke(block); }

void offstage_call_block(void *block) { call_block(block); }

static void run_block(void *block) {
    call_block(block);
    _Block_release(block);
}

/// Work that leaves a group once done (dispatch_group_async).
typedef struct {
    group_t group;
    void *context;
    function_t function;
} group_work;

static void run_group_work(void *pointer) {
    group_work work = *(group_work *)pointer;
    free(pointer);
    work.function(work.context);
    real_group_leave(work.group);
}

// MARK: Time

// libdispatch's encoding of dispatch_time_t on Linux: below bit 63, the uptime clock; bit 63 alone, the
// monotonic clock; bits 63 and 62, the wall clock; all in nanoseconds.
#define TIME_CLOCK_MASK (1ULL << 63)
#define TIME_WALL_MASK (1ULL << 62)

/// Nanoseconds of the host's time from now to `when`; negative for "never".
static int64_t delay_until(offstage_host *host, dispatch_time_value when) {
    if (when == 0) return 0;
    if (when == ~0ULL) return -1;
    int64_t target, now;
    if (when & TIME_CLOCK_MASK) {
        if (when & TIME_WALL_MASK) {
            target = (int64_t)(when & ~(TIME_CLOCK_MASK | TIME_WALL_MASK));
            now = host->wall_ns;
        } else {
            target = (int64_t)(when & ~TIME_CLOCK_MASK);
            now = host->uptime_ns;
        }
    } else {
        target = (int64_t)when;
        now = host->uptime_ns;
    }
    return target > now ? target - now : 0;
}

static int clock_is_wall(clockid_t clock) {
    return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI;
}

static int clock_is_monotonic(clockid_t clock) {
    return clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_MONOTONIC_COARSE
        || clock == CLOCK_BOOTTIME;
}

int clock_gettime(clockid_t clock, struct timespec *time) {
    offstage_host *host = offstage_current_host();
    if (host && (clock_is_wall(clock) || clock_is_monotonic(clock))) {
        int64_t ns = clock_is_wall(clock) ? host->wall_ns : host->uptime_ns;
        time->tv_sec = ns / 1000000000;
        time->tv_nsec = ns % 1000000000;
        return 0;
    }
    return real_clock_gettime(clock, time);
}

int gettimeofday(struct timeval *restrict time, void *restrict zone) {
    offstage_host *host = offstage_current_host();
    if (host) {
        time->tv_sec = host->wall_ns / 1000000000;
        time->tv_usec = (host->wall_ns % 1000000000) / 1000;
        return 0;
    }
    return real_gettimeofday(time, zone);
}

time_t time(time_t *result) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_time(result);
    time_t seconds = (time_t)(host->wall_ns / 1000000000);
    if (result) *result = seconds;
    return seconds;
}

// MARK: Enqueueing

static void enqueue(offstage_host *host, queue_t queue, int64_t delay, void *context, function_t function) {
    host->enqueue(host->owner, queue, delay, context, function);
}

/// The relative delay of a dispatch time read on a thread outside the host (its own clock, the real one).
static int64_t real_delay_until(dispatch_time_value when) {
    if (when == 0) return 0;
    if (when == ~0ULL) return -1;
    struct timespec now;
    int wall = (when & TIME_CLOCK_MASK) && (when & TIME_WALL_MASK);
    real_clock_gettime(wall ? CLOCK_REALTIME : CLOCK_MONOTONIC, &now);
    int64_t target = (int64_t)(when & ~(TIME_CLOCK_MASK | TIME_WALL_MASK));
    int64_t current = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    return target > current ? target - current : 0;
}

void dispatch_async(queue_t queue, block_t block) {
    offstage_host *host = offstage_current_host();
    if (!host && offstage_thread_started_by_app()) {
        void *copy = _Block_copy(block);
        if (offstage_enqueue_foreign(queue, 0, copy, run_block)) return;
        _Block_release(copy);
    }
    if (!host) return real_async(queue, block);
    enqueue(host, queue, 0, _Block_copy(block), run_block);
}

void dispatch_async_f(queue_t queue, void *context, function_t function) {
    offstage_host *host = offstage_current_host();
    if (!host && offstage_enqueue_foreign(queue, 0, context, function)) return;
    if (!host) return real_async_f(queue, context, function);
    enqueue(host, queue, 0, context, function);
}

void dispatch_barrier_async(queue_t queue, block_t block) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_barrier_async(queue, block);
    enqueue(host, queue, 0, _Block_copy(block), run_block);
}

void dispatch_barrier_async_f(queue_t queue, void *context, function_t function) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_barrier_async_f(queue, context, function);
    enqueue(host, queue, 0, context, function);
}

void dispatch_after(dispatch_time_value when, queue_t queue, block_t block) {
    offstage_host *host = offstage_current_host();
    if (!host && offstage_thread_started_by_app()) {
        int64_t delay = real_delay_until(when);
        if (delay < 0) return;
        void *copy = _Block_copy(block);
        if (offstage_enqueue_foreign(queue, delay, copy, run_block)) return;
        _Block_release(copy);
    }
    if (!host) return real_after(when, queue, block);
    int64_t delay = delay_until(host, when);
    if (delay >= 0) enqueue(host, queue, delay, _Block_copy(block), run_block);
}

void dispatch_after_f(dispatch_time_value when, queue_t queue, void *context, function_t function) {
    offstage_host *host = offstage_current_host();
    if (!host && offstage_thread_started_by_app()) {
        int64_t delay = real_delay_until(when);
        if (delay < 0 || offstage_enqueue_foreign(queue, delay, context, function)) return;
    }
    if (!host) return real_after_f(when, queue, context, function);
    int64_t delay = delay_until(host, when);
    if (delay >= 0) enqueue(host, queue, delay, context, function);
}

void dispatch_group_async_f(group_t group, queue_t queue, void *context, function_t function) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_group_async_f(group, queue, context, function);
    group_work *work = malloc(sizeof(group_work));
    *work = (group_work){group, context, function};
    real_group_enter(group);
    enqueue(host, queue, 0, work, run_group_work);
}

void dispatch_group_async(group_t group, queue_t queue, block_t block) {
    if (!offstage_current_host()) return real_group_async(group, queue, block);
    dispatch_group_async_f(group, queue, _Block_copy(block), run_block);
}

void dispatch_group_notify_f(group_t group, queue_t queue, void *context, function_t function) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_group_notify_f(group, queue, context, function);
    host->notify(host->owner, group, queue, context, function);
}

void dispatch_group_notify(group_t group, queue_t queue, block_t block) {
    if (!offstage_current_host()) return real_group_notify(group, queue, block);
    dispatch_group_notify_f(group, queue, _Block_copy(block), run_block);
}

// MARK: Running in place and waiting

/// Runs `function(context)` now, on this thread, as work of `queue`, after the work queued on it before.
static void run_as(queue_t queue, void *context, function_t function) {
    offstage_host *host = offstage_current_host();
    host->run_due(host->owner, queue);
    void *previous = offstage_current_queue();
    offstage_enter(host, queue);
    function(context);
    offstage_enter(host, previous);
}

void dispatch_sync(queue_t queue, block_t block) {
    if (!offstage_current_host()) return real_sync(queue, block);
    run_as(queue, block, call_block);
}

void dispatch_sync_f(queue_t queue, void *context, function_t function) {
    if (!offstage_current_host()) return real_sync_f(queue, context, function);
    run_as(queue, context, function);
}

void dispatch_barrier_sync(queue_t queue, block_t block) {
    if (!offstage_current_host()) return real_barrier_sync(queue, block);
    run_as(queue, block, call_block);
}

void dispatch_barrier_sync_f(queue_t queue, void *context, function_t function) {
    if (!offstage_current_host()) return real_barrier_sync_f(queue, context, function);
    run_as(queue, context, function);
}

/// `DispatchQueue.concurrentPerform`: the iterations run in place, one after another, in order (one of the
/// orders libdispatch could choose), so each runs as the app's code.
void dispatch_apply_f(size_t iterations, queue_t queue, void *context, void (*function)(void *, size_t)) {
    if (!offstage_current_host()) return real_apply_f(iterations, queue, context, function);
    for (size_t index = 0; index < iterations; index++) function(context, index);
}

static void call_apply_block(void *block, size_t index) {
    ((void (*)(block_t, size_t))((block_t)block)->invoke)(block, index);
}

void dispatch_apply(size_t iterations, queue_t queue, block_t block) {
    if (!offstage_current_host()) return real_apply(iterations, queue, block);
    dispatch_apply_f(iterations, queue, block, call_apply_block);
}

long offstage_try_wait(int kind, void *object) {
    switch (kind) {
    case OFFSTAGE_WAIT_SEMAPHORE: return real_semaphore_wait(object, 0);
    case OFFSTAGE_WAIT_GROUP: return real_group_wait(object, 0);
    default: return 1;
    }
}

// MARK: Sleeping (Thread.sleep, usleep, sleep)

static int64_t timespec_ns(const struct timespec *time) {
    return (int64_t)time->tv_sec * 1000000000 + time->tv_nsec;
}

/// Parks the app's thread for `ns` of the host's time.
static void sleep_for(offstage_host *host, int64_t ns) {
    if (ns > 0) host->wait(host->owner, OFFSTAGE_WAIT_TIME, host, ns);
}

int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_nanosleep(duration, remaining);
    sleep_for(host, timespec_ns(duration));
    if (remaining) *remaining = (struct timespec){0, 0};
    return 0;
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *time, struct timespec *remaining) {
    offstage_host *host = offstage_current_host();
    if (!host || !(clock_is_wall(clock) || clock_is_monotonic(clock)))
        return real_clock_nanosleep(clock, flags, time, remaining);
    int64_t ns = timespec_ns(time);
    if (flags & TIMER_ABSTIME) ns -= clock_is_wall(clock) ? host->wall_ns : host->uptime_ns;
    sleep_for(host, ns);
    if (remaining) *remaining = (struct timespec){0, 0};
    return 0;
}

int usleep(useconds_t microseconds) {
    offstage_host *host = offstage_current_host();
    if (!host) return nanosleep(&(struct timespec){microseconds / 1000000, (microseconds % 1000000) * 1000}, NULL);
    sleep_for(host, (int64_t)microseconds * 1000);
    return 0;
}

unsigned int sleep(unsigned int seconds) {
    offstage_host *host = offstage_current_host();
    if (!host) return real_nanosleep(&(struct timespec){seconds, 0}, NULL) == 0 ? 0 : seconds;
    sleep_for(host, (int64_t)seconds * 1000000000);
    return 0;
}

static long wait_for(int kind, void *object, dispatch_time_value timeout) {
    offstage_host *host = offstage_current_host();
    if (offstage_try_wait(kind, object) == 0) return 0;
    int64_t delay = delay_until(host, timeout);
    if (delay == 0) return 1;
    return host->wait(host->owner, kind, object, delay);
}

long dispatch_semaphore_wait(semaphore_t semaphore, dispatch_time_value timeout) {
    if (!offstage_current_host()) return real_semaphore_wait(semaphore, timeout);
    return wait_for(OFFSTAGE_WAIT_SEMAPHORE, semaphore, timeout);
}

long dispatch_group_wait(group_t group, dispatch_time_value timeout) {
    if (!offstage_current_host()) return real_group_wait(group, timeout);
    return wait_for(OFFSTAGE_WAIT_GROUP, group, timeout);
}

void dispatch_assert_queue(queue_t queue) {
    if (offstage_current_host() && queue == offstage_current_queue()) return;
    real_assert_queue(queue);
}

// MARK: The main thread and its run loop (Thread.isMainThread, RunLoop.main, Timer)

/// Whether app code runs on the main queue, which the host runs as the app's main thread.
static int on_main_queue(void) {
    return offstage_current_host() && offstage_current_queue() == (void *)&_dispatch_main_q;
}

/// `Thread.isMainThread`, `Thread.current` (`Thread.main` there) and `OperationQueue.current` (`.main`) ask this.
unsigned char _CFIsMainThread(void) {
    if (offstage_current_host()) return on_main_queue();
    return real_is_main_thread();
}

/// On the main queue, `RunLoop.current` is the main run loop (where `Timer.scheduledTimer` adds its timer).
void *CFRunLoopGetCurrent(void) {
    if (on_main_queue()) return real_run_loop_get_main();
    return real_run_loop_get_current();
}

/// A timer added to the main run loop by app code fires as the host's main-queue work; added to another thread's
/// run loop (a background queue's), it waits for that run loop to run, as on iOS: never, unless the app runs it.
void CFRunLoopAddTimer(void *run_loop, void *timer, const void *mode) {
    offstage_host *host = offstage_current_host();
    if (host && run_loop == real_run_loop_get_main()) return host->timer(host->owner, timer, 1);
    real_run_loop_add_timer(run_loop, timer, mode);
}

void CFRunLoopTimerSetNextFireDate(void *timer, double date) {
    real_run_loop_timer_set_next_fire_date(timer, date);
    offstage_host *host = offstage_current_host();
    if (host) host->timer(host->owner, timer, 0);
}

/// `RunLoop.main.perform { }`: the block runs as main-queue work.
void CFRunLoopPerformBlock(void *run_loop, const void *modes, block_t block) {
    offstage_host *host = offstage_current_host();
    if (host && run_loop == real_run_loop_get_main())
        return enqueue(host, &_dispatch_main_q, 0, _Block_copy(block), run_block);
    real_run_loop_perform_block(run_loop, modes, block);
}

/// CoreFoundation's `CFRunLoopTimerContext`.
typedef struct {
    long version;
    void *info;
    void *retain, *release, *copy_description;
} run_loop_timer_context;

void *offstage_timer_info(void *timer) {
    run_loop_timer_context context = {0};
    run_loop_timer_get_context(timer, &context);
    return context.info;
}

// MARK: Dispatch timer sources

/// Tells the host of an event of `source`; nonzero when the host keeps it (a timer source the app made).
static long tell_source(
    offstage_host *host, int event, void *source, void *queue, int64_t delay, int64_t interval, void *context,
    function_t function) {
    return host->source(host->owner, event, source, queue, delay, interval, context, function);
}

/// A timer source made by app code is the host's: libdispatch keeps the object but never arms its timer.
void *dispatch_source_create(const void *type, uintptr_t handle, uintptr_t mask, queue_t queue) {
    void *source = real_source_create(type, handle, mask, queue);
    offstage_host *host = offstage_current_host();
    if (host && source && type == timer_source_type)
        tell_source(host, OFFSTAGE_SOURCE_CREATED, source, queue ? queue : offstage_background_queue(), 0, 0, NULL,
            NULL);
    return source;
}

void dispatch_source_set_timer(void *source, dispatch_time_value start, uint64_t interval, uint64_t leeway) {
    offstage_host *host = offstage_current_host();
    if (host) {
        int64_t repeat = interval == ~0ULL || interval > INT64_MAX ? -1 : (int64_t)interval;
        if (tell_source(host, OFFSTAGE_SOURCE_TIMER, source, NULL, delay_until(host, start), repeat, NULL, NULL))
            return real_source_set_timer(source, ~0ULL, ~0ULL, leeway);
    }
    real_source_set_timer(source, start, interval, leeway);
}

void dispatch_source_set_event_handler(void *source, block_t handler) {
    offstage_host *host = offstage_current_host();
    if (host && handler && tell_source(host, OFFSTAGE_SOURCE_EVENT_HANDLER, source, NULL, 0, 0, NULL, NULL))
        return (void)tell_source(
            host, OFFSTAGE_SOURCE_EVENT_HANDLER, source, NULL, 0, 0, _Block_copy(handler), offstage_call_block);
    real_source_set_event_handler(source, handler);
}

void dispatch_source_set_cancel_handler(void *source, block_t handler) {
    offstage_host *host = offstage_current_host();
    if (host && handler && tell_source(host, OFFSTAGE_SOURCE_CANCEL_HANDLER, source, NULL, 0, 0, NULL, NULL))
        return (void)tell_source(
            host, OFFSTAGE_SOURCE_CANCEL_HANDLER, source, NULL, 0, 0, _Block_copy(handler), offstage_call_block);
    real_source_set_cancel_handler(source, handler);
}

/// A source's handler set by function: libdispatch calls it with the source's context as it is when the event
/// comes (`dispatch_set_context`), so the host calls it through this record, which reads the context then.
typedef struct {
    void *source;
    function_t handler;
} source_function;

static void run_source_function(void *pointer) {
    source_function *record = pointer;
    record->handler(get_context(record->source));
}

/// Hands a handler set by function to the host when it keeps `source`; 1 when it did.
static int keep_source_function(offstage_host *host, int event, void *source, function_t handler) {
    if (!host || !handler || !tell_source(host, event, source, NULL, 0, 0, NULL, NULL)) return 0;
    source_function *record = malloc(sizeof(source_function));
    *record = (source_function){source, handler};
    tell_source(host, event, source, NULL, 0, 0, record, run_source_function);
    return 1;
}

void dispatch_source_set_event_handler_f(void *source, function_t handler) {
    if (keep_source_function(offstage_current_host(), OFFSTAGE_SOURCE_EVENT_HANDLER, source, handler)) return;
    real_source_set_event_handler_f(source, handler);
}

void dispatch_source_set_cancel_handler_f(void *source, function_t handler) {
    if (keep_source_function(offstage_current_host(), OFFSTAGE_SOURCE_CANCEL_HANDLER, source, handler)) return;
    real_source_set_cancel_handler_f(source, handler);
}

void dispatch_source_cancel(void *source) {
    offstage_host *host = offstage_current_host();
    if (host) tell_source(host, OFFSTAGE_SOURCE_CANCEL, source, NULL, 0, 0, NULL, NULL);
    real_source_cancel(source);
}

void dispatch_activate(void *object) {
    offstage_host *host = offstage_current_host();
    if (host) tell_source(host, OFFSTAGE_SOURCE_ACTIVATE, object, NULL, 0, 0, NULL, NULL);
    real_activate(object);
}

void dispatch_resume(void *object) {
    offstage_host *host = offstage_current_host();
    if (host) tell_source(host, OFFSTAGE_SOURCE_RESUME, object, NULL, 0, 0, NULL, NULL);
    real_resume(object);
}

void dispatch_suspend(void *object) {
    offstage_host *host = offstage_current_host();
    if (host) tell_source(host, OFFSTAGE_SOURCE_SUSPEND, object, NULL, 0, 0, NULL, NULL);
    real_suspend(object);
}

// MARK: Threads the app's code starts (Thread)

/// A `Thread` started by app code (Foundation's `Thread.start()` creates it here, inside Foundation; threads that
/// libdispatch or other libraries start are left alone) runs for real (the host cannot run it in its time), but
/// remembers its app (`offstage_app_thread_start`): its queued work goes to the host, and OffstageKit stops it,
/// rather than the process, if it calls the system.
pthread_t _CFThreadCreate(pthread_attr_t attributes, void *(*routine)(void *), void *argument) {
    void *(*start_routine)(void *);
    void *start_argument;
    if (!offstage_app_thread_start(routine, argument, &start_routine, &start_argument))
        return real_thread_create(attributes, routine, argument);
    return real_thread_create(attributes, start_routine, start_argument);
}

// MARK: The symbols the interposition needs, found and checked at load

/// One symbol the interposition needs: its name, where its real definition is kept once found, the
/// interposition's own definition (NULL for a symbol it only uses), and what virtual time loses without it.
typedef struct {
    const char *name;
    void **real;
    void *own;
    const char *loses;
} needed_symbol;

#define INTERPOSED(symbol, variable, loses) {#symbol, (void **)&variable, (void *)symbol, loses}
#define USED(symbol, variable, loses) {#symbol, (void **)&variable, NULL, loses}

/// Every symbol the interposition needs, in the order `offstage_interposition_symbol` reports them.
static needed_symbol needed_symbols[] = {
    INTERPOSED(dispatch_async, real_async, "DispatchQueue.async and Task jobs run on libdispatch's threads in real time"),
    INTERPOSED(dispatch_async_f, real_async_f, "Swift concurrency's jobs and OperationQueue run in real time"),
    INTERPOSED(dispatch_barrier_async, real_barrier_async, "async(flags: .barrier) runs in real time"),
    INTERPOSED(dispatch_barrier_async_f, real_barrier_async_f, "barrier work queued by function runs in real time"),
    INTERPOSED(dispatch_after, real_after, "asyncAfter fires after real seconds, not virtual ones"),
    INTERPOSED(dispatch_after_f, real_after_f, "Task.sleep fires after real seconds, not virtual ones"),
    INTERPOSED(dispatch_group_async, real_group_async, "DispatchQueue.async(group:) runs in real time"),
    INTERPOSED(dispatch_group_async_f, real_group_async_f, "group work queued by function runs in real time"),
    INTERPOSED(dispatch_group_notify, real_group_notify, "DispatchGroup.notify runs in real time"),
    INTERPOSED(dispatch_group_notify_f, real_group_notify_f, "group notifications by function run in real time"),
    USED(dispatch_group_enter, real_group_enter, "group work cannot hold its group until it ran"),
    USED(dispatch_group_leave, real_group_leave, "group work cannot leave its group once it ran"),
    INTERPOSED(dispatch_group_wait, real_group_wait, "DispatchGroup.wait blocks the simulator's thread"),
    INTERPOSED(dispatch_sync, real_sync, "sync on a queue the simulator runs deadlocks"),
    INTERPOSED(dispatch_sync_f, real_sync_f, "sync by function on a queue the simulator runs deadlocks"),
    INTERPOSED(dispatch_barrier_sync, real_barrier_sync, "sync(flags: .barrier) deadlocks"),
    INTERPOSED(dispatch_barrier_sync_f, real_barrier_sync_f, "barrier sync by function deadlocks"),
    INTERPOSED(dispatch_semaphore_wait, real_semaphore_wait, "DispatchSemaphore.wait blocks the simulator's thread"),
    INTERPOSED(dispatch_apply, real_apply, "concurrentPerform runs on libdispatch's threads"),
    INTERPOSED(dispatch_apply_f, real_apply_f, "concurrentPerform by function runs on libdispatch's threads"),
    INTERPOSED(dispatch_assert_queue, real_assert_queue, "dispatchPrecondition fails on the simulated main queue"),
    INTERPOSED(clock_gettime, real_clock_gettime, "Date(), ContinuousClock and DispatchTime.now() read real time"),
    INTERPOSED(gettimeofday, real_gettimeofday, "gettimeofday reads real time"),
    INTERPOSED(time, real_time, "time() reads real time"),
    INTERPOSED(nanosleep, real_nanosleep, "Thread.sleep and usleep sleep real seconds"),
    INTERPOSED(clock_nanosleep, real_clock_nanosleep, "clock_nanosleep sleeps real seconds"),
    INTERPOSED(dispatch_source_create, real_source_create, "DispatchSource timers fire in real time"),
    INTERPOSED(dispatch_source_set_timer, real_source_set_timer, "DispatchSource timers fire in real time"),
    INTERPOSED(dispatch_source_set_event_handler, real_source_set_event_handler,
        "a kept timer source's handler never runs"),
    INTERPOSED(dispatch_source_set_event_handler_f, real_source_set_event_handler_f,
        "a kept timer source's handler set by function (Swift concurrency's timers) never runs"),
    INTERPOSED(dispatch_source_set_cancel_handler, real_source_set_cancel_handler,
        "a kept timer source's cancel handler never runs"),
    INTERPOSED(dispatch_source_set_cancel_handler_f, real_source_set_cancel_handler_f,
        "a kept timer source's cancel handler set by function never runs"),
    INTERPOSED(dispatch_source_cancel, real_source_cancel, "a kept timer source goes on firing after cancel"),
    INTERPOSED(dispatch_activate, real_activate, "a kept timer source never starts"),
    INTERPOSED(dispatch_resume, real_resume, "a kept timer source never starts"),
    INTERPOSED(dispatch_suspend, real_suspend, "a kept timer source fires while suspended"),
    INTERPOSED(_CFIsMainThread, real_is_main_thread, "Thread.isMainThread is false on the simulated main queue"),
    INTERPOSED(CFRunLoopGetCurrent, real_run_loop_get_current, "RunLoop.current is not the main run loop there"),
    USED(CFRunLoopGetMain, real_run_loop_get_main, "the main run loop cannot be told apart"),
    INTERPOSED(CFRunLoopAddTimer, real_run_loop_add_timer, "Timer.scheduledTimer fires in real time"),
    INTERPOSED(CFRunLoopTimerSetNextFireDate, real_run_loop_timer_set_next_fire_date,
        "a Timer's new fire date is not seen"),
    INTERPOSED(CFRunLoopPerformBlock, real_run_loop_perform_block, "RunLoop.main.perform never runs"),
    INTERPOSED(_CFThreadCreate, real_thread_create, "work queued from a Thread the app starts runs in real time"),
    USED(dispatch_get_global_queue, get_global_queue, "task launches have no background queue to run on"),
    USED(dispatch_queue_get_label, queue_get_label, "a stall cannot name its queue"),
    USED(dispatch_get_context, get_context, "a timer source's handler set by function gets no context"),
    USED(CFRunLoopTimerGetContext, run_loop_timer_get_context, "a run-loop timer cannot be matched to its Timer"),
    USED(_dispatch_source_type_timer, timer_source_type, "timer sources cannot be told apart from other sources"),
};

#define NEEDED_SYMBOLS ((int)(sizeof(needed_symbols) / sizeof(needed_symbols[0])))

__attribute__((constructor)) static void find_real_functions(void) {
    for (int index = 0; index < NEEDED_SYMBOLS; index++) {
        needed_symbol *symbol = &needed_symbols[index];
        *symbol->real = dlsym(symbol->own ? RTLD_NEXT : RTLD_DEFAULT, symbol->name);
    }
}

int offstage_interposition_symbol_count(void) { return NEEDED_SYMBOLS; }

offstage_symbol_status offstage_interposition_symbol(int index) {
    needed_symbol symbol = needed_symbols[index];
    int interposed = symbol.own ? dlsym(RTLD_DEFAULT, symbol.name) == symbol.own : -1;
    return (offstage_symbol_status){symbol.name, symbol.loses, *symbol.real != NULL, interposed};
}
