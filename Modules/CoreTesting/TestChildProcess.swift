import Foundation
import HostIO

extension ChildProcess {
    /// Starts `command` for a test: standard input from /dev/null, output and error into the given handles
    /// (nil: /dev/null). A pipe's write end given here is the caller's to close once this returns, so reading
    /// the pipe ends when the child does.
    public static func startForTest(
        _ command: [String], environment: [String: String]? = nil, output: FileHandle? = nil,
        error: FileHandle? = nil
    ) throws -> ChildProcess {
        try ChildProcess.start(
            command, environment: environment, output: output?.fileDescriptor, error: error?.fileDescriptor)
    }
}
