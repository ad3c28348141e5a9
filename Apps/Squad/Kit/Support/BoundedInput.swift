import Foundation

/// Standard input and the files `squad` reads, read in pieces up to a stated cap: `git ls-files` of a
/// million-file repository is about 60 MB, so anything past the cap is a mistake (a device, a runaway pipe) that
/// is refused with one line, never a failed allocation and a backtrace.
enum BoundedInput {
    /// The most `squad` reads from one input.
    static let limit = 256 << 20

    /// Everything on `descriptor`, as bytes (git paths are bytes, and decoding them would change the names that
    /// are not UTF-8), or an error naming `name` once more than ``limit`` bytes arrive. Each piece is read in
    /// place and the pieces copied once into the whole.
    static func read(descriptor: Int32, name: String, limit: Int = limit) throws -> [UInt8] {
        let chunk = 1 << 20
        var pieces: [[UInt8]] = []
        var total = 0
        var ended = false
        while !ended {
            // A pipe hands over 64 KB a read: each piece is filled before the next is started.
            let piece = try [UInt8](unsafeUninitializedCapacity: chunk) { buffer, count in
                while count < chunk {
                    let read = Foundation.read(descriptor, buffer.baseAddress! + count, chunk - count)
                    if read < 0 && errno == EINTR { continue }
                    guard read >= 0 else {
                        throw ShellError(message: "\(name) cannot be read (\(String(cString: strerror(errno))))")
                    }
                    if read == 0 {
                        ended = true
                        break
                    }
                    count += read
                }
            }
            guard total + piece.count <= limit else {
                throw ShellError(
                    message: "\(name) is larger than \(limit >> 20) MB, the most squad reads; give a smaller input")
            }
            total += piece.count
            pieces.append(piece)
        }
        if pieces.count == 1 { return pieces[0] }
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            for piece in pieces { count = buffer[count...].initialize(fromContentsOf: piece) }
        }
    }

    /// Standard input's bytes.
    static func standardInput() throws -> [UInt8] {
        try read(descriptor: STDIN_FILENO, name: "standard input")
    }

    /// A regular file's bytes, capped like standard input; nil when it cannot be opened or is not a file.
    static func file(_ path: String, name: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try read(descriptor: descriptor, name: name)
    }
}
