// swift-tools-version: 6.0
import PackageDescription

// The dependency rule of ARCHITECTURE.md §2, as data. Every target below is generated from these tables, so
// adding a module is one line; `squad lint` reads each target's kind from these same tables (ManifestKinds) and
// checks the rule against the manifest's edges (`swift package dump-package`) and every `import` line.

/// Squad modules under Modules/<Name>, each with the modules it may import.
let modules: [(name: String, dependencies: [String])] = [
    ("Core", []),
    ("Payments", ["Core", "Currency", "InputRules", "PaymentsInterface", "OrderInterface", "PromoInterface"]),
    ("Order", ["Core", "Currency", "OrderInterface", "LocationInterface"]),
    ("Location", ["Core", "LocationInterface", "OrderInterface"]),
    ("Login", ["Core"]),
    ("Tabs", ["Core", "TerminalUI", "SafeText"]),
    ("Profile", ["Core", "Login", "Tabs"]),
    ("Feed", ["Core", "Login", "Tabs"]),
    ("Storage", ["Core", "Login", "Tabs", "HostIO"]),
    ("Promo", ["Core", "Currency", "PromoInterface", "SafeText", "InputRules"]),
    // squad:new-module (squad new inserts above this line)
]

/// Squads with an interface target, `<Name>Interface` under Modules/<Name>/Interface (the interface-module pattern
/// of Tuist's µFeatures): the events the squad publishes and their payload types, owned with the squad's folder.
/// Other squads and apps import the interface, never the squad's module; an interface depends on Core (and shared libraries) only.
let interfaces: [String] = [
    "Payments",
    "Order",
    "Location",
    "Promo",
    // squad:new-interface (squad new inserts above this line)
]

/// Squad modules whose demo answers live in Modules/<Name>/Fixtures, laid out like the API
/// (`carts/C100/price.json`): SwiftPM ships each tree as the module's resources, and the embedded backend and
/// Scripts/serve-fixtures lay every one over the host's (which keeps the screens and layouts), refusing a path two
/// trees give.
let fixtures: [String] = [
    "Payments",
    "Order",
    "Location",
    "Promo",
    "Login",
    "Profile",
    "Feed",
    // squad:new-fixtures (squad new inserts above this line)
]

/// Shared libraries under Modules/<Name>: what several targets need that is not the kernel. Each depends on the
/// toolchain, Core's vocabulary at most, and other shared libraries.
let sharedLibraries: [(name: String, dependencies: [String])] = [
    ("JSON", ["SafeText"]),
    ("SafeText", []),
    ("InputRules", ["SafeText"]),
    ("ArgumentParsing", ["SafeText", "InputRules"]),
    ("Currency", []),
    ("CodeOwnership", []),
    ("TerminalUI", ["Core", "SafeText"]),
    ("FixtureBackend", ["Core", "JSON"]),
    ("ScreenRuntime", ["Core", "JSON", "InputRules"]),
    ("HostIO", ["Core", "SafeText", "TerminalUI", "ArgumentParsing"]),
    (
        "ScreenSinks",
        ["Core", "JSON", "SafeText", "InputRules", "TerminalUI", "ScreenRuntime", "HostIO", "ArgumentParsing"]
    ),
    ("LiveScreen", ["Core", "SafeText", "TerminalUI", "ScreenRuntime", "HostIO", "ScreenSinks"]),
    // What a command-line host composes: its backend (the embedded demo's trees, --record and --replay), its
    // demo's subjects, and a screen command's run. Backends are built here and in the app, never in a sink.
    // Squad code in worker processes: a crash or a hang costs only that module's cards (the host's WorkerPool,
    // the worker's ComponentWorker, the framed protocol between them).
    ("ComponentWorkers", ["Core", "SafeText", "ScreenRuntime", "HostIO", "ArgumentParsing"]),
    (
        "HostComposition",
        [
            "Core", "JSON", "InputRules", "FixtureBackend", "HostIO", "ArgumentParsing", "ScreenRuntime", "SafeText",
            "ScreenSinks", "LiveScreen", "CodeOwnership", "TerminalUI", "ComponentWorkers",
        ]
    ),
]

/// Squad modules other squad modules may plug into (their containers: a login hook, a tab).
let pluginPoints: [String] = ["Login", "Tabs"]

/// Platform adapters under Modules/<Name>: only apps import them (a squad module gets its `Backend` from the host).
let adapters: [(name: String, dependencies: [String])] = [
    ("CoreHTTP", ["Core", "CurlBinding"]),
    // A worker's sandbox on this system (Landlock, seccomp), handed to ComponentWorkers by the app.
    ("Confinement", ["ComponentWorkers", "HostIO", "SandboxBinding"]),
]

/// C bindings of system libraries under Modules/<Name>: they depend on the system only.
let systemBindings: [String] = ["CurlBinding", "SandboxBinding"]

/// Libraries that only tests and tools use, under Modules/<Name>.
let testSupport: [(name: String, dependencies: [String])] = [
    ("CoreTesting", ["Core", "TerminalUI", "ScreenRuntime", "HostIO"])
]

/// Apps under Apps/<Name>: a testable Kit library plus a thin executable. Apps may import any module.
let apps: [(name: String, executable: String, dependencies: [String])] = [
    (
        "OrderTracking", "order-tracking",
        modules.map(\.name) + interfaces.map { "\($0)Interface" } + [
            "JSON", "ArgumentParsing", "TerminalUI", "CodeOwnership", "CoreHTTP", "FixtureBackend", "SafeText",
            "InputRules", "ScreenRuntime", "HostIO", "ScreenSinks", "LiveScreen", "HostComposition",
            "ComponentWorkers", "Confinement",
        ]
    ),
    // FixtureBackend for FixtureClaims: `squad lint` and the demo backend apply one rule to squads' fixture trees;
    // InputRules for InputID: a scaffold's demo subjects are folders whose names are ids, as `preview`'s are.
    (
        "Squad", "squad",
        ["JSON", "ArgumentParsing", "CodeOwnership", "SafeText", "HostIO", "FixtureBackend", "InputRules"]
    ),
    (
        "Benchmarks", "courier-bench",
        [
            "Core", "CoreTesting", "ScreenRuntime", "JSON", "TerminalUI", "CodeOwnership", "CoreHTTP", "FixtureBackend",
            "SafeText",
        ]
    ),
]

var targets: [Target] = []
var products: [Product] = []

for library in modules + sharedLibraries + adapters + testSupport {
    targets.append(
        .target(
            name: library.name,
            dependencies: library.dependencies.map { .target(name: $0) },
            path: "Modules/\(library.name)",
            exclude: ["README.md"] + (interfaces.contains(library.name) ? ["Interface"] : []),
            resources: fixtures.contains(library.name) ? [.copy("Fixtures")] : []
        ))
    products.append(.library(name: library.name, targets: [library.name]))
}

for squad in interfaces {
    // An interface may use the shared input rules (PromoDiscount's code is an InputCode).
    targets.append(
        .target(name: "\(squad)Interface", dependencies: ["Core", "InputRules"], path: "Modules/\(squad)/Interface"))
    products.append(.library(name: "\(squad)Interface", targets: ["\(squad)Interface"]))
}

// libcurl's C interface, loaded with dlopen on first use (Linux only; see Modules/CurlBinding/README.md), and the
// system calls a worker confines itself with (Modules/SandboxBinding/README.md).
for binding in systemBindings {
    targets.append(
        .target(
            name: binding,
            path: "Modules/\(binding)",
            exclude: ["README.md"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ))
}

for library in modules + sharedLibraries + adapters + testSupport {
    targets.append(
        .testTarget(
            name: "\(library.name)Tests",
            dependencies: [.target(name: library.name)] + (library.name == "CoreTesting" ? [] : ["CoreTesting"])
                + (interfaces.contains(library.name) ? [.target(name: "\(library.name)Interface")] : []),
            path: "Tests/\(library.name)Tests"
        ))
}

for app in apps {
    let kit = "\(app.name)Kit"
    targets.append(
        .target(
            name: kit,
            dependencies: app.dependencies.map { .target(name: $0) },
            path: "Apps/\(app.name)/Kit",
            resources: app.name == "OrderTracking" ? [.copy("Fixtures")] : []
        ))
    targets.append(
        .executableTarget(
            name: app.name,
            dependencies: [.target(name: kit)],
            path: "Apps/\(app.name)/Main"
        ))
    targets.append(
        .testTarget(
            name: "\(app.name)Tests",
            dependencies: [.target(name: kit), .target(name: app.name), "CoreTesting"],
            path: "Tests/\(app.name)Tests"
        ))
    products.append(.executable(name: app.executable, targets: [app.name]))
}

let package = Package(
    name: "Courier",
    // Synchronization's Mutex and the Duration-based clocks need these releases.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
