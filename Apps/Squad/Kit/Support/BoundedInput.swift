import Foundation

/// Standard input and the files `squad` reads, read in pieces up to a stated cap: `git ls-files` of a
/// million-file repository is about 60 MB, so anything past the cap is a mistake (a device, a runaway pipe) that
/// is refused with one line, never a failed allocation and a backtrace.
enum BoundedInput {
    /// The most `squad` reads from one input.
    static let limit = 256 << 20

    /// Everything on `descriptor`, or an error naming `name` once more than ``limit`` bytes arrive.
    static func read(descriptor: Int32, name: String, limit: Int = limit) throws -> Data {
        var data = Data()
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, chunk) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ShellError(message: "\(name) cannot be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { return data }
            guard data.count + count <= limit else {
                throw ShellError(
                    message: "\(name) is larger than \(limit >> 20) MB, the most squad reads; give a smaller input")
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Standard input as text.
    static func standardInput() throws -> String {
        String(decoding: try read(descriptor: STDIN_FILENO, name: "standard input"), as: UTF8.self)
    }

    /// A regular file's bytes, capped like standard input; nil when it cannot be opened or is not a file.
    static func file(_ path: String, name: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try read(descriptor: descriptor, name: name)
    }
}
