#if os(Linux)
    import Core
    import CurlBinding
    import Foundation

    /// HTTP on Linux: one libcurl multi handle, driven by one thread that sleeps in `curl_multi_poll` while it
    /// waits (FoundationNetworking's URLSession spins a core instead). A GET's connection is kept and reused across
    /// requests; a POST has a connection of its own (``CurlTransfer``). The thread exits when nothing is in flight
    /// and starts again with the next request.
    final class CurlTransport: Sendable {
        struct Options: Sendable {
            var timeout: Duration
            var caFile: String?
            var maximumRedirects = 5
            var maximumBodyBytes = 16 << 20
        }

        private struct Queue {
            var added: [CurlTransfer] = []
            var cancelled: [CurlTransfer] = []
            var running = false
        }

        private let multi: MultiHandle
        private let options: Options
        private let queue = Locked(Queue())

        /// A transport, or the reason libcurl cannot be used in this process.
        static func make(options: Options) -> Result<CurlTransport, BackendError.Unavailable> {
            var reason = [CChar](repeating: 0, count: 256)
            guard courier_curl_load(&reason, reason.count) == 1, let multi = courier_curl_multi_init() else {
                let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(.init(reason: text.isEmpty ? "curl_multi_init failed" : text))
            }
            return .success(CurlTransport(multi: MultiHandle(multi), options: options))
        }

        private init(multi: MultiHandle, options: Options) {
            self.multi = multi
            self.options = options
        }

        /// GETs `url` (or POSTs `post`): the status and body, or the fault as a ``BackendError`` for `path`.
        func get(_ url: String, path: String, post: (body: Data, headers: [String])? = nil) async throws(BackendError)
            -> (status: Int, body: Data)
        {
            let transfer: CurlTransfer
            do { transfer = try CurlTransfer(url: url, path: path, options: options, post: post) } catch { throw error }
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    transfer.continuation = continuation
                    enqueue { $0.added.append(transfer) }
                }
            } onCancel: {
                enqueue { $0.cancelled.append(transfer) }
            }
            return try result.get()
        }

        private func enqueue(_ change: (inout Queue) -> Void) {
            let start = queue.withLock { queue in
                change(&queue)
                defer { queue.running = true }
                return !queue.running
            }
            if start {
                let thread = Thread { [self] in loop() }
                thread.name = "courier-http"
                thread.start()
            } else {
                _ = courier_curl_multi_wakeup(multi.pointer)
            }
        }

        /// The transfer loop; the only code that touches the multi handle (but for `wakeup`).
        private func loop() {
            var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
            while true {
                let (added, cancelled) = queue.withLock { queue -> ([CurlTransfer], [CurlTransfer]) in
                    defer { (queue.added, queue.cancelled) = ([], []) }
                    if queue.added.isEmpty && queue.cancelled.isEmpty && active.isEmpty { queue.running = false }
                    return (queue.added, queue.cancelled)
                }
                if added.isEmpty && cancelled.isEmpty && active.isEmpty { return }
                for transfer in added {
                    if transfer.cancelled {
                        transfer.finish(.failure(.transport("cancelled", path: transfer.path)))
                    } else {
                        active[transfer.easy] = transfer
                        _ = courier_curl_multi_add_handle(multi.pointer, transfer.easy)
                    }
                }
                for transfer in cancelled {
                    transfer.cancelled = true
                    guard active.removeValue(forKey: transfer.easy) != nil else { continue }
                    _ = courier_curl_multi_remove_handle(multi.pointer, transfer.easy)
                    transfer.finish(transfer.cancellation())
                }
                var running: Int32 = 0
                _ = courier_curl_multi_perform(multi.pointer, &running)
                var easy: UnsafeMutableRawPointer?
                var code: Int32 = 0
                while courier_curl_multi_next_done(multi.pointer, &easy, &code) == 1 {
                    guard let easy, let transfer = active.removeValue(forKey: easy) else { continue }
                    _ = courier_curl_multi_remove_handle(multi.pointer, easy)
                    transfer.finish(transfer.outcome(code: code))
                }
                if !active.isEmpty { _ = courier_curl_multi_poll(multi.pointer, 1000) }
            }
        }
    }

    /// Owns the multi handle (and so the connection cache) for as long as a transport exists.
    private final class MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
        deinit { courier_curl_multi_cleanup(pointer) }
    }
#endif
