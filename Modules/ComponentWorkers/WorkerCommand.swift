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
    /// the run, and nothing is sandboxed) or the executable cannot be found. Each module's fetches are held to its
    /// registrations' endpoints and its `calling` declarations. `sandbox` says what this system cannot confine: the
    /// pool says so once (`--trace`), or, with `COURIER_WORKER_SANDBOX=required`, that is the failure. A bad
    /// `COURIER_WORKER_MEMORY_MB`, `COURIER_IN_PROCESS` or `COURIER_WORKER_SANDBOX` is the failure, said as advice.
    /// `said` hears the one line that says the squads' code runs unsandboxed in this process.
    public static func pool(
        isolating isolated: [ComponentRegistration], calling: [EndpointDeclaration] = [],
        environment: [String: String], clock: any CourierClock, sandbox: WorkerSandbox = .none,
        said: (String) -> Void = { _ in }
    ) throws(UsageError) -> WorkerPool? {
        switch environment["COURIER_IN_PROCESS"] {
        case nil, "", "0": break
        case "1":
            said("note: COURIER_IN_PROCESS=1: squads' code runs in this process, unsandboxed")
            return nil
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
        let required = try Self.sandboxRequired(environment)
        if required, !sandbox.missing.isEmpty {
            throw UsageError(
                message: "COURIER_WORKER_SANDBOX=required, and this system cannot hold squads' code to "
                    + sandbox.missing.map(\.rawValue).joined(separator: ", ")
                    + "; unset it to run them without that")
        }
        guard let executable = ExecutableLocation.path() else { return nil }
        var reach: [String: [String]] = [:]
        for line in isolated { reach[line.module, default: []].append(line.endpoint) }
        for declaration in calling { reach[declaration.module, default: []].append(declaration.endpoint) }
        return WorkerPool(
            command: [executable, subcommand, "--memory", String(memory)]
                + (required ? ["--sandbox", "required"] : []),
            isolated: Set(isolated.map(\.id)), clock: clock, environment: environment,
            reach: reach.mapValues(DeclaredReach.init), missing: sandbox.missing, build: BuildIdentity.running)
    }

    /// Whether `COURIER_WORKER_SANDBOX` asks for every protection (`required`) or for those this system has
    /// (`available`, the default).
    public static func sandboxRequired(_ environment: [String: String]) throws(UsageError) -> Bool {
        switch environment["COURIER_WORKER_SANDBOX"] {
        case nil, "", "available": return false
        case "required": return true
        case let other?:
            let shown = other.count > 40 ? other.prefix(40) + "…" : Substring(other)
            throw UsageError(
                message: "COURIER_WORKER_SANDBOX='\(shown)' is not required (refuse to run squads' code without "
                    + "every protection) or available (run it with what this system has)")
        }
    }

    /// Confines this process with `sandbox` when `arguments` start a worker: called first, on the process's only
    /// thread, before any squad code and any other thread exist (Landlock binds the calling thread and those it
    /// starts). What it could not apply, or nil for any other command line.
    public static func confine(_ arguments: [String], sandbox: WorkerSandbox) -> [WorkerProtection]? {
        guard arguments.first == subcommand else { return nil }
        return sandbox.confine()
    }

    /// A worker's life, from its arguments (``subcommand`` `--memory MIB [--sandbox required] MODULE`):
    /// serves the host with the module's registrations among `registrations` until the host closes the pipe.
    /// `unconfined` is what ``confine(_:sandbox:)`` could not apply: with `--sandbox required` any of it ends the
    /// worker (78) before the squad's code runs. Anything else is refused (64).
    public static func serve(
        _ arguments: [String], registrations: [ComponentRegistration], errands: [WorkerErrand] = [],
        unconfined: [WorkerProtection] = []
    ) async -> Int32 {
        var arguments = Array(arguments.dropFirst())
        var required = false
        if arguments.count == 5, arguments[2] == "--sandbox", arguments[3] == "required" {
            required = true
            arguments.removeSubrange(2...3)
        }
        guard arguments.count == 3, arguments[0] == "--memory", let memory = Int(arguments[1]),
            case let mine = registrations.filter({ $0.module == arguments[2] }),
            case let owned = errands.filter({ $0.module == arguments[2] }), !mine.isEmpty || !owned.isEmpty
        else {
            FileHandle.standardError.write(Data("\(subcommand) is started by the host itself, not by hand\n".utf8))
            return 64
        }
        if required, !unconfined.isEmpty {
            let pieces = unconfined.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("the worker could not confine itself: \(pieces)\n".utf8))
            return 78
        }
        return await ComponentWorker.serve(mine, errands: owned, memory: memory)
    }
}
