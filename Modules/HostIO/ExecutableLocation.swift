import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Where the running executable really is, asked of the system, never worked out from `argv[0]`: a program found
/// through `PATH` gets its bare name there, and a folder worked out from it is the working folder, where anyone
/// who can write a folder can put files the program would then trust (the embedded demo backend, its fallback
/// screen definitions). Symbolic links are resolved, so a link to the program finds the files beside the program.
public enum ExecutableLocation {
    /// The running executable's path, links resolved (`/proc/self/exe` on Linux, `_NSGetExecutablePath` and
    /// `realpath` on Darwin), or nil when the system cannot say.
    public static func path() -> String? {
        #if canImport(Darwin)
            var size: UInt32 = 0
            _ = _NSGetExecutablePath(nil, &size)
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0, let real = realpath(buffer, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        #elseif canImport(Glibc)
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    readlink("/proc/self/exe", $0, bytes.count - 1)
                }
            }
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count], as: UTF8.self)
        #else
            return nil
        #endif
    }

    /// The folder holding the running executable (``path()`` without its last component), or nil.
    public static func folder() -> String? {
        guard let path = path(), let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
