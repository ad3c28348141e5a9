import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Wall time of `body`, in seconds.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    return (ContinuousClock.now - start).seconds
}

/// Median, min and max of several samples.
struct Sample: Sendable {
    let median: Double
    let min: Double
    let max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }
}

/// User and system seconds of this process, or of every child it has waited for: a child's processor time is
/// what the benchmarks compare, free of the wall clock's noise.
func cpuSeconds(ofChildren children: Bool) -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The process's peak resident memory so far, in MiB.
func peakMemoryMB() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    // Linux reports KiB, Apple platforms bytes.
    #if canImport(Glibc)
        return Double(usage.ru_maxrss) / 1024
    #else
        return Double(usage.ru_maxrss) / 1024 / 1024
    #endif
}

extension Duration {
    var milliseconds: Double { seconds * 1000 }
}
