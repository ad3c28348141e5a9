import Synchronization

#if COURIER_TSAN
    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #endif

    /// ThreadSanitizer builds only (`-Xswiftc -DCOURIER_TSAN`): the same interface as `Mutex`, on a pthread
    /// mutex that TSan can see. The toolchain's `Mutex` on Linux locks with futexes TSan cannot observe, so it
    /// reports races on perfectly guarded state (Scripts/sanitize explains and runs both sanitizers).
    public final class Locked<Value>: @unchecked Sendable {
        private var value: Value
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        /// Guards `value`.
        public init(_ value: Value) {
            self.value = value
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` with exclusive access to the value.
        public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
#else
    /// The one lock Courier uses: Synchronization's `Mutex`. A name of our own lets sanitizer builds swap in a
    /// lock ThreadSanitizer can observe without touching any call site.
    public typealias Locked<Value> = Mutex<Value>
#endif
