import Foundation

/// ARCHITECTURE.md §2 as code: Core depends on nothing; shared libraries on Core and each other; a plugin point
/// (Login, Tabs) and every domain module on Core, shared libraries and plugin points; test support on Core and shared libraries;
/// platform adapters (CoreHTTP, CurlBinding) only on what they list, and only apps on them; no module on an app;
/// no cycles. `squad lint` checks the manifest's edges and every `import` line against it.
public struct DependencyRule: Sendable {
    /// The kernel.
    public static let kernel = "Core"
    /// Modules other modules may plug into.
    public static let pluginPoints: Set<String> = ["Login", "Tabs"]
    /// Modules only tests use.
    public static let testSupport: Set<String> = ["CoreTesting"]
    /// What several targets need that is not the kernel; each may use Core and the others.
    public static let sharedLibraries: Set<String> = [
        "JSON", "ArgumentParsing", "Currency", "CodeOwnership", "TerminalUI", "FixtureBackend", "SafeText", "Faces",
        "ScreenRuntime", "HostIO", "ScreenSinks", "LiveScreen",
    ]
    /// Platform adapters beside the kernel and exactly what each may use. Only apps import them: a squad module
    /// gets its `Backend` from the host and never builds one.
    public static let adapters: [String: Set<String>] = ["CoreHTTP": ["Core", "CurlBinding"], "CurlBinding": []]

    let graph: PackageGraph

    /// A rule check over a package.
    public init(graph: PackageGraph) { self.graph = graph }

    var moduleTargets: [PackageGraph.Target] {
        graph.targets.filter { $0.kind == "regular" && $0.path.hasPrefix("Modules/") }
    }

    /// Why `module` may not depend on `dependency`, or nil when it may.
    public func violation(_ module: String, dependsOn dependency: String) -> String? {
        let isModule = moduleTargets.contains { $0.name == dependency }
        if !isModule {
            let known = graph.targets.contains { $0.name == dependency }
            return known ? "\(module) must not depend on \(dependency): modules never import an app" : nil
        }
        if module == DependencyRule.kernel {
            return "Core must not depend on \(dependency): Core depends on the toolchain only"
        }
        if dependency == module { return nil }
        if let allowed = DependencyRule.adapters[module] {
            if allowed.contains(dependency) { return nil }
            if allowed.isEmpty { return "\(module) must not depend on \(dependency): it uses system libraries only" }
            return "\(module) may depend on \(allowed.sorted().joined(separator: ", ")) only, not \(dependency)"
        }
        if DependencyRule.adapters[dependency] != nil {
            return
                "\(module) must not depend on \(dependency): squad modules get a Backend from the host; only apps build one"
        }
        if DependencyRule.sharedLibraries.contains(module) {
            if dependency == DependencyRule.kernel || DependencyRule.sharedLibraries.contains(dependency) { return nil }
            return "\(module) must not depend on \(dependency): shared libraries depend on Core and each other only"
        }
        if DependencyRule.testSupport.contains(dependency) {
            return "\(module) must not depend on test support \(dependency)"
        }
        if DependencyRule.testSupport.contains(module) {
            if dependency == DependencyRule.kernel || DependencyRule.sharedLibraries.contains(dependency) { return nil }
            return "\(module) may depend on Core and shared libraries only, not \(dependency)"
        }
        if dependency == DependencyRule.kernel || DependencyRule.sharedLibraries.contains(dependency) { return nil }
        if DependencyRule.pluginPoints.contains(dependency) && !DependencyRule.pluginPoints.contains(module) {
            return nil
        }
        return
            "\(module) must not depend on \(dependency): modules depend on Core, shared libraries and plugin points (Login, Tabs) only"
    }

    /// Every violation in the manifest's edges, plus any cycle.
    public func manifestViolations() -> [String] {
        var problems = moduleTargets.flatMap { target in
            target.dependencies.compactMap { violation(target.name, dependsOn: $0).map { "Package.swift: \($0)" } }
        }
        if let cycle = graph.cycle() {
            problems.append("Package.swift: dependency cycle \(cycle.joined(separator: " → "))")
        }
        return problems
    }

    /// Violations in `import` lines of a module's source file: forbidden imports and imports the manifest does not declare.
    public func importViolations(module: String, file: String, source: String) -> [String] {
        guard let target = moduleTargets.first(where: { $0.name == module }) else { return [] }
        let targetNames = Set(graph.targets.map(\.name))
        var problems: [String] = []
        for (number, line) in source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                words[..<index].allSatisfy({
                    $0.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains($0)
                })
            else { continue }
            let imported = String(words[index + 1].split(separator: ".").first ?? "")
            guard targetNames.contains(imported), imported != module else { continue }
            if let why = violation(module, dependsOn: imported) {
                problems.append("\(file):\(number + 1): \(why)")
            } else if !target.dependencies.contains(imported) {
                problems.append(
                    "\(file):\(number + 1): \(module) imports \(imported) but Package.swift does not declare it")
            }
        }
        return problems
    }
}
