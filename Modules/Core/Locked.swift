import Synchronization

#if COURIER_TSAN
    import Foundation

    /// ThreadSanitizer builds only (`-Xswiftc -DCOURIER_TSAN`): the same interface as `Mutex`, on `NSLock` (a
    /// pthread mutex, which TSan sees). The toolchain's `Mutex` on Linux locks with futexes TSan cannot observe,
    /// so it reports races on perfectly guarded state (Scripts/sanitize explains and runs both sanitizers).
    public final class Locked<Value>: @unchecked Sendable {
        private var value: Value
        private let lock = NSLock()

        /// Guards `value`.
        public init(_ value: Value) { self.value = value }

        /// Runs `body` with exclusive access to the value.
        public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }
#else
    /// The one lock Courier uses: Synchronization's `Mutex`. A name of our own lets sanitizer builds swap in a
    /// lock ThreadSanitizer can observe without touching any call site.
    public typealias Locked<Value> = Mutex<Value>
#endif
