// swift-tools-version: 6.0
import PackageDescription

// The dependency rule of DESIGN §2, as data. Every target below is generated from
// these tables, so adding a module is one line, and `squad lint` checks the rule
// against this manifest (`swift package dump-package`) and every `import` line.

/// Squad modules under Modules/<Name>, each with the modules it may import.
let modules: [(name: String, dependencies: [String])] = [
    ("Core", []),
    ("CoreHTTP", ["Core", "LazyCurl"]),
    ("Payments", ["Core"]),
    ("Order", ["Core"]),
    ("Location", ["Core"]),
    ("Login", ["Core"]),
    ("Tabs", ["Core"]),
    ("Profile", ["Core", "Login", "Tabs"]),
    ("Feed", ["Core", "Login", "Tabs"]),
    ("Storage", ["Core", "Login"]),
    // squad:new-module (squad new inserts above this line)
]

/// Libraries that only tests and tools use, under Modules/<Name>.
let testSupport: [(name: String, dependencies: [String])] = [
    ("CoreTesting", ["Core"])
]

/// Apps under Apps/<Name>: a testable Kit library plus a thin executable. Apps may import any module.
let apps: [(name: String, executable: String, dependencies: [String])] = [
    ("OrderTracking", "order-tracking", modules.map(\.name) + ["SquadKit"]),
    ("Squad", "squad", ["Core"]),
    ("Benchmarks", "courier-bench", ["Core", "CoreTesting", "SquadKit"]),
]

var targets: [Target] = []
var products: [Product] = []

for module in modules + testSupport {
    targets.append(
        .target(
            name: module.name,
            dependencies: module.dependencies.map { .target(name: $0) },
            path: "Modules/\(module.name)",
            exclude: ["README.md"]
        ))
    products.append(.library(name: module.name, targets: [module.name]))
}

// FoundationNetworking's libcurl, bound on first use (C; see Modules/LazyCurl/README.md). LinkStubs holds an
// empty libcurl.a that answers `-lcurl` in static links, so they need no libcurl -dev package.
targets.append(
    .target(
        name: "LazyCurl",
        path: "Modules/LazyCurl",
        exclude: ["README.md", "LinkStubs"],
        cSettings: [.define("COURIER_LAZY_CURL", .when(platforms: [.linux]))],
        linkerSettings: [
            .linkedLibrary("dl", .when(platforms: [.linux])),
            .unsafeFlags(["-L", Context.packageDirectory + "/Modules/LazyCurl/LinkStubs"], .when(platforms: [.linux])),
        ]
    ))

for module in modules {
    targets.append(
        .testTarget(
            name: "\(module.name)Tests",
            dependencies: [.target(name: module.name), "CoreTesting"],
            path: "Tests/\(module.name)Tests"
        ))
}

/// order-tracking's release build is position-dependent: a static Swift binary has ~75,000 pointers for the
/// loader to relocate at every start, a fifth of a text screen's start-up (Apps/OrderTracking/README.md).
let fixedAddressInRelease: [LinkerSetting] = [
    .unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))
]

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
            path: "Apps/\(app.name)/Main",
            linkerSettings: app.name == "OrderTracking" ? fixedAddressInRelease : []
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
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
