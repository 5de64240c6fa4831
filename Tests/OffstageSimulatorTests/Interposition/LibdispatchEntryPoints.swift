/// libdispatch's exported functions that the interposition (`OffstageAppExecution`) leaves alone, each with why:
/// our list, checked in, from `nm -D --defined-only libdispatch.so` of the Swift 6.3 toolchain for Linux. The test
/// `everyLibdispatchEntryPointIsInterposedOrListed` reads the library the process loaded and fails on any
/// function that is neither interposed nor here, so a new way to queue work cannot slip past virtual time.
enum LibdispatchEntryPoints {
    /// Why a function is not interposed.
    enum Left: Hashable {
        /// It queues no work and waits for none: it makes, configures, reads or frees an object.
        case queuesNoWork
        /// It runs the work it is given on the calling thread, at once: the app's code stays the app's.
        case runsInPlace
        /// It queues or waits for work, deliberately left to libdispatch: why, and what it means for app code.
        case leftToLibdispatch(String)
    }

    /// Every function of libdispatch not interposed, and why.
    static let notInterposed: [String: Left] = {
        let groups: [(why: Left, names: [String])] = [
            (
                .queuesNoWork,
                [
                    "_dispatch_block_create", "_dispatch_bug", "_dispatch_iocntl",
                    "_dispatch_is_fork_of_multithreaded_parent", "_dispatch_is_multithreaded", "_dispatch_log",
                    "_dispatch_prohibit_transition_to_multithreaded", "_os_object_alloc", "_os_object_alloc_realized",
                    "_os_object_dealloc", "_os_object_release", "_os_object_release_internal",
                    "_os_object_release_internal_n", "_os_object_retain", "_os_object_retain_internal",
                    "_os_object_retain_internal_n", "_os_object_retain_with_resurrect", "dispatch_atfork_child",
                    "dispatch_atfork_parent", "dispatch_atfork_prepare", "dispatch_assert_queue_barrier",
                    "dispatch_assert_queue_not", "dispatch_block_cancel", "dispatch_block_create",
                    "dispatch_block_create_with_qos_class", "dispatch_block_create_with_voucher",
                    "dispatch_block_create_with_voucher_and_qos_class", "dispatch_block_testcancel",
                    "dispatch_data_copy_region", "dispatch_data_create_alloc", "dispatch_data_create_concat",
                    "dispatch_data_create_map", "dispatch_data_create_subrange", "dispatch_data_get_size",
                    "dispatch_debug", "dispatch_debugv", "dispatch_get_context", "dispatch_get_current_queue",
                    "dispatch_get_global_queue", "dispatch_get_specific", "dispatch_group_create",
                    "dispatch_group_enter", "dispatch_group_leave", "dispatch_queue_attr_make_initially_inactive",
                    "dispatch_queue_attr_make_with_autorelease_frequency", "dispatch_queue_attr_make_with_overcommit",
                    "dispatch_queue_attr_make_with_qos_class", "dispatch_queue_create",
                    "dispatch_queue_create_with_accounting_override_voucher", "dispatch_queue_create_with_target",
                    "dispatch_queue_get_label", "dispatch_queue_get_qos_class", "dispatch_queue_get_specific",
                    "dispatch_queue_set_label_nocopy", "dispatch_queue_set_specific", "dispatch_queue_set_width",
                    "dispatch_release", "dispatch_retain", "dispatch_semaphore_create", "dispatch_semaphore_signal",
                    "dispatch_set_context", "dispatch_set_finalizer_f", "dispatch_set_qos_class",
                    "dispatch_set_qos_class_fallback", "dispatch_set_qos_class_floor", "dispatch_set_target_queue",
                    "dispatch_source_get_data", "dispatch_source_get_extended_data", "dispatch_source_get_handle",
                    "dispatch_source_get_mask", "dispatch_source_testcancel", "dispatch_time", "dispatch_walltime",
                    "dispatch_workloop_copy_current", "dispatch_workloop_create", "dispatch_workloop_create_inactive",
                    "dispatch_workloop_is_current", "dispatch_workloop_set_autorelease_frequency",
                    "dispatch_workloop_set_cpupercent", "dispatch_workloop_set_qos_class",
                    "dispatch_workloop_set_qos_class_floor", "libdispatch_init",
                ]
            ),
            (
                .runsInPlace,
                [
                    "dispatch_once", "dispatch_once_f", "dispatch_block_perform", "dispatch_data_apply",
                    "dispatch_data_apply_f", "dispatch_benchmark", "dispatch_benchmark_f",
                ]
            ),
            (
                .leftToLibdispatch(
                    "file and socket I/O completes when the kernel does, in real time, and its handlers run on libdispatch's "
                        + "threads outside virtual time; background code on iOS transfers with URLSession, which the host runs"
                ),
                [
                    "dispatch_io_barrier", "dispatch_io_barrier_f", "dispatch_io_close", "dispatch_io_create",
                    "dispatch_io_create_f", "dispatch_io_create_with_io", "dispatch_io_create_with_io_f",
                    "dispatch_io_create_with_path", "dispatch_io_create_with_path_f", "dispatch_io_get_descriptor",
                    "dispatch_io_read", "dispatch_io_read_f", "dispatch_io_set_high_water", "dispatch_io_set_interval",
                    "dispatch_io_set_low_water", "dispatch_io_write", "dispatch_io_write_f", "dispatch_read",
                    "dispatch_read_f", "dispatch_write", "dispatch_write_f",
                ]
            ),
            (
                .leftToLibdispatch(
                    "the host keeps timer sources' timer, event and cancel handlers; other handlers (registration, mandatory "
                        + "cancel) and other sources' events (data, signal, read, write) run on libdispatch's threads"),
                [
                    "dispatch_source_merge_data", "dispatch_source_set_registration_handler",
                    "dispatch_source_set_registration_handler_f", "dispatch_source_set_mandatory_cancel_handler",
                    "dispatch_source_set_mandatory_cancel_handler_f", "dispatch_source_cancel_and_wait",
                ]
            ),
            (
                .leftToLibdispatch(
                    "DispatchWorkItem.notify and wait follow a block's completion inside libdispatch: the notified block runs, "
                        + "and the wait returns, in real time"), ["dispatch_block_notify", "dispatch_block_wait"]
            ),
            (
                .leftToLibdispatch(
                    "no Swift API reaches it on Linux: the Dispatch overlay has no asyncAndWait, and neither Foundation nor the "
                        + "Swift runtime imports it (nm -D --undefined-only of their libraries)"),
                [
                    "dispatch_async_and_wait", "dispatch_async_and_wait_f", "dispatch_barrier_async_and_wait",
                    "dispatch_barrier_async_and_wait_f", "dispatch_async_enforce_qos_class_f",
                ]
            ),
            (
                .leftToLibdispatch(
                    "private to Apple's frameworks, launchd or libdispatch's own workers; app code never calls it"),
                [
                    "_dispatch_poll_for_events_4launchd", "_dispatch_wait_for_enqueuer",
                    "_dispatch_workloop_should_yield_4NW",
                ]
            ),
            (
                .leftToLibdispatch(
                    "CoreFoundation's run loops drain their queues with it; the host's main-queue work never goes through "
                        + "the real main queue, and other threads' run loops do not run in the simulator (as on iOS)"),
                [
                    "_dispatch_get_main_queue_handle_4CF", "_dispatch_get_main_queue_port_4CF",
                    "_dispatch_main_queue_callback_4CF", "_dispatch_runloop_root_queue_create_4CF",
                    "_dispatch_runloop_root_queue_perform_4CF", "_dispatch_runloop_root_queue_wakeup_4CF",
                ]
            ),
            (
                .leftToLibdispatch(
                    "a data object's destructor runs on its queue when the data is freed: memory management, not app work"
                ),
                ["dispatch_data_create", "dispatch_data_create_f", "dispatch_data_create_with_transform"]
            ),
            (
                .leftToLibdispatch(
                    "it parks the process's main thread for good; the host never runs app code on that thread"),
                ["dispatch_main"]
            ),
        ]
        return Dictionary(uniqueKeysWithValues: groups.flatMap { group in group.names.map { ($0, group.why) } })
    }()
}
