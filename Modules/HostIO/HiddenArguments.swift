import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A host's arguments and environment kept from the processes that could read them: `/proc/PID/cmdline` and
/// `environ` (and `ps`) show any process of the person's the strings the host was started with, its `--api`,
/// `--data-dir` and `--record` and a token the person exported, and a squad's worker is such a process.
public enum HiddenArguments {
    /// What stays readable: the test runner's marker, no secret, by which `Scripts/test-clean` finds a process a
    /// run left behind.
    public static let shown = ["COURIER_TEST_RUN"]

    /// Blanks the strings of this process's arguments past its name and of its environment, but for ``shown``.
    /// Call it first, on the only thread, once the arguments were read (`CommandLine.arguments` keeps its copy;
    /// each variable is moved to a copy of its own, which `getenv` and `ProcessInfo` read).
    public static func hide() {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            memset(argument, 0, strlen(argument))
        }
        #if os(Linux)
            var index = 0
            while let variable = environ[index], let copy = strdup(variable) {
                environ[index] = copy
                if !shown.contains(where: { strncmp(variable, $0 + "=", $0.utf8.count + 1) == 0 }) {
                    memset(variable, 0, strlen(variable))
                }
                index += 1
            }
        #endif
    }
}
