import CoreTesting
import Foundation
import Testing

/// What this Linux machine can prove about Apple platforms: the manifest declares them, and every file that
/// reaches for Glibc has the Darwin twin beside it.
@Suite struct PortabilityTests {
    let root = TestServer.repositoryRoot

    func sources() throws -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        for folder in ["Modules", "Apps", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker where url.pathExtension == "swift" {
                found.append((url.path, try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return found
    }

    @Test func everyGlibcImportHasItsDarwinTwin() throws {
        let files = try sources()
        #expect(files.count > 50)
        for file in files where file.text.contains("import Glibc") {
            #expect(file.text.contains("canImport(Darwin)"), "\(file.path) imports Glibc without the Darwin twin")
        }
        for file in files where file.text.contains("Glibc.") {
            #expect(file.text.contains("Darwin."), "\(file.path) calls Glibc by name without the Darwin twin")
        }
    }

    @Test func theManifestDeclaresApplePlatforms() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for platform in [".macOS(", ".iOS("] { #expect(manifest.contains(platform)) }
        #expect(!manifest.contains("unsafeFlags"), "a package with unsafeFlags cannot be a versioned dependency")
    }
}
