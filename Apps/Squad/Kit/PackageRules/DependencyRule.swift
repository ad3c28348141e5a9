import Foundation

/// ARCHITECTURE.md §2 as code: the kernel depends on nothing; shared libraries on the kernel and each other; a
/// squad's interface target (`PaymentsInterface`) on the kernel and shared libraries; a plugin point and every
/// squad module on the kernel, shared libraries, plugin points and squads' interface targets, never on another
/// squad's module; test support on the kernel and shared libraries; adapters (CoreHTTP, CurlBinding) only on what
/// they list, and only apps on them; no module on an app; no cycles. Which module is which kind is read from
/// Package.swift's tables (``ManifestKinds``). `squad lint` checks the manifest's edges and every `import` line
/// against it.
public struct DependencyRule: Sendable {
    let graph: PackageGraph
    /// Each module's kind, from the manifest.
    public let kinds: ManifestKinds

    /// A rule check over a package whose modules are `kinds`.
    public init(graph: PackageGraph, kinds: ManifestKinds) { (self.graph, self.kinds) = (graph, kinds) }

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
        if module == kinds.kernel {
            return "\(module) must not depend on \(dependency): \(module) depends on the toolchain only"
        }
        if dependency == module { return nil }
        if let allowed = kinds.adapters[module] {
            if allowed.contains(dependency) { return nil }
            if allowed.isEmpty { return "\(module) must not depend on \(dependency): it uses system libraries only" }
            return "\(module) may depend on \(allowed.sorted().joined(separator: ", ")) only, not \(dependency)"
        }
        if kinds.adapters[dependency] != nil {
            return
                "\(module) must not depend on \(dependency): squad modules get a Backend from the host; only apps build one"
        }
        if kinds.sharedLibraries.contains(module) {
            if dependency == kinds.kernel || kinds.sharedLibraries.contains(dependency) { return nil }
            return "\(module) must not depend on \(dependency): shared libraries depend on Core and each other only"
        }
        if kinds.testSupport.contains(dependency) {
            return "\(module) must not depend on test support \(dependency)"
        }
        if kinds.testSupport.contains(module) || kinds.interfaces.contains(module) {
            if dependency == kinds.kernel || kinds.sharedLibraries.contains(dependency) { return nil }
            let what = kinds.interfaces.contains(module) ? "an interface declares events" : "test support"
            return "\(module) may depend on Core and shared libraries only (\(what)), not \(dependency)"
        }
        if dependency == kinds.kernel || kinds.sharedLibraries.contains(dependency) { return nil }
        if kinds.interfaces.contains(dependency) { return nil }
        if kinds.pluginPoints.contains(dependency) && !kinds.pluginPoints.contains(module) {
            return nil
        }
        let points = kinds.pluginPoints.sorted().joined(separator: ", ")
        return
            "\(module) must not depend on \(dependency): modules depend on \(kinds.kernel), shared libraries, plugin points (\(points)) and squads' interfaces (\(dependency)Interface) only"
    }

    /// Every violation in the manifest's edges, plus any cycle.
    public func manifestViolations() -> [String] {
        var problems = moduleTargets.flatMap { target in
            target.dependencies.compactMap { violation(target.name, dependsOn: $0).map { "Package.swift: \($0)" } }
        }
        for target in moduleTargets {
            let tables = [
                kinds.modules.contains(target.name), kinds.interfaces.contains(target.name),
                kinds.sharedLibraries.contains(target.name),
                kinds.adapters[target.name] != nil, kinds.testSupport.contains(target.name),
            ].filter { $0 }.count
            if tables != 1 {
                problems.append(
                    "Package.swift: \(target.name) is in \(tables) of the tables modules, interfaces, sharedLibraries, "
                        + "adapters (or systemBindings) and testSupport; put it in exactly one, so its kind is known")
            }
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
