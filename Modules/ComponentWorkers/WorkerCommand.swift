import ArgumentParsing
import Core
import Foundation
import HostIO

/// A squad's code outside any card that a host runs in the squad's worker (a login hook): the module it belongs to,
/// its id, and what it does with the worker's way to the data and its argument (JSON), saying a line for a person.
public struct WorkerErrand: Sendable {
    /// The module (squad) whose worker runs it.
    public let module: String
    /// Its id, unique among the host's errands ("Profile").
    public let id: String
    /// The work: the backend (the host's, through the worker) and the argument.
    public let run: @Sendable (any Backend, Data) async throws -> String

    /// An errand of `module` named `id`.
    public init(module: String, id: String, run: @escaping @Sendable (any Backend, Data) async throws -> String) {
        (self.module, self.id, self.run) = (module, id, run)
    }
}

/// How a command-line host runs its squads' code in workers of its own executable: the pool it starts them from
/// and the worker's side of the internal subcommand. One rule for the memory limit, read once.
public enum WorkerCommand {
    /// The internal subcommand a worker is started with (never typed by a person; in no help).
    public static let subcommand = "__worker"
    /// How much a worker may allocate beyond what it holds when it starts, in MiB, unless
    /// `COURIER_WORKER_MEMORY_MB` says otherwise (16 to 1048576).
    public static let memory = 512

    /// The pool running the code of `isolated` in workers of this executable, or nil when `COURIER_IN_PROCESS=1`
    /// asks for every squad's code in this process (a debugger's view, the benchmark's baseline: a crash then ends
    /// the run) or the executable cannot be found. A bad `COURIER_WORKER_MEMORY_MB` or `COURIER_IN_PROCESS` is the
    /// failure, said as advice.
    public static func pool(
        isolating isolated: [ComponentRegistration], environment: [String: String], clock: any CourierClock
    ) throws(UsageError) -> WorkerPool? {
        switch environment["COURIER_IN_PROCESS"] {
        case nil, "", "0": break
        case "1": return nil
        case let other?:
            let shown = other.count > 40 ? other.prefix(40) + "…" : Substring(other)
            throw UsageError(
                message: "COURIER_IN_PROCESS='\(shown)' is not 1 (squads' code in this process) or 0 (in workers)")
        }
        var memory = Self.memory
        if let given = environment["COURIER_WORKER_MEMORY_MB"] {
            guard let value = Int(given), (16...1_048_576).contains(value) else {
                let shown = given.count > 40 ? given.prefix(40) + "…" : Substring(given)
                throw UsageError(
                    message: "COURIER_WORKER_MEMORY_MB='\(shown)' is not a number of MiB from 16 to 1048576")
            }
            memory = value
        }
        guard let executable = ExecutableLocation.path() else { return nil }
        return WorkerPool(
            command: [executable, subcommand, "--memory", String(memory)], isolated: Set(isolated.map(\.id)),
            clock: clock, environment: environment)
    }

    /// A worker's life, from the arguments after ``subcommand`` (`--memory MIB MODULE`): serves the host with the
    /// module's registrations among `registrations` until the host closes the pipe. Anything else is refused (64).
    public static func serve(
        _ arguments: [String], registrations: [ComponentRegistration], errands: [WorkerErrand] = []
    ) async -> Int32 {
        guard arguments.count == 3, arguments[0] == "--memory", let memory = Int(arguments[1]),
            case let mine = registrations.filter({ $0.module == arguments[2] }),
            case let owned = errands.filter({ $0.module == arguments[2] }), !mine.isEmpty || !owned.isEmpty
        else {
            FileHandle.standardError.write(Data("\(subcommand) is started by the host itself, not by hand\n".utf8))
            return 64
        }
        return await ComponentWorker.serve(mine, errands: owned, memory: memory)
    }
}
