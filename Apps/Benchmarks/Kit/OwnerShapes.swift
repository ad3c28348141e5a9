import Foundation

/// CODEOWNERS files of different shapes, each with paths that exercise it: the owners figure is the worst of
/// them, so a speed-up that holds only for one corpus cannot pass for a result. Generated, deterministic.
struct OwnersShape {
    let name: String
    let codeowners: String
    let paths: [String]

    static func all(rules: Int, paths: Int) -> [OwnersShape] {
        [
            OwnersShape(name: "monorepo", workload: MonorepoWorkload(rules: rules, paths: paths)),
            lateBroad(rules: rules, paths: paths),
            wildcards(rules: rules, paths: paths),
            unanchored(rules: rules, paths: paths),
            deep(rules: rules, paths: paths),
            prefixGlobs(rules: rules * 5, paths: paths),
            substringGlobs(rules: rules * 5, paths: paths),
            extensionsOnly(rules: rules, paths: paths),
        ]
    }

    /// The shapes `--dump` wrote (or anyone wrote in that form): `<name>-CODEOWNERS` beside `<name>-paths.txt`.
    static func load(from folder: URL) throws -> [OwnersShape] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("-CODEOWNERS") }.sorted()
        guard !names.isEmpty else {
            throw BenchmarkError(message: "\(folder.path) holds no NAME-CODEOWNERS file (write shapes with --dump)")
        }
        return try names.map { file in
            let name = String(file.dropLast("-CODEOWNERS".count))
            let paths = try String(contentsOf: folder.appendingPathComponent("\(name)-paths.txt"), encoding: .utf8)
            return OwnersShape(
                name: name,
                codeowners: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8),
                paths: paths.split(separator: "\n").map(String.init))
        }
    }

    init(name: String, codeowners: String, paths: [String]) {
        self.name = name
        self.codeowners = codeowners
        self.paths = paths
    }

    init(name: String, workload: MonorepoWorkload) {
        self.init(name: name, codeowners: workload.codeowners, paths: workload.paths)
    }

    /// Anchored module folders first, then mixed rules with broad `*.ext` ones late in the file.
    static func lateBroad(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 7)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        let modules = max(rules / 2, 1)
        var lines = (0..<modules).map { "/Modules/M\($0)/ @org/t\($0 % 30)" }
        let extensions = ["swift", "md", "json", "yml", "sh", "py", "ts", "txt"]
        while lines.count < rules {
            switch lines.count % 5 {
            case 0: lines.append("*.\(extensions[pick(extensions.count)]) @org/lang\(pick(5))")
            case 1: lines.append("/Modules/M\(pick(modules))/Tests/ @org/qa")
            case 2: lines.append("docs/ @org/docs\(pick(3))")
            case 3: lines.append("/Apps/A\(pick(40))/ @org/app\(pick(10))")
            default: lines.append("*.gen\(pick(50)) @org/gen")
            }
        }
        let paths = (0..<count).map { number -> String in
            let file = "F\(number).\(extensions[pick(extensions.count)])"
            switch pick(10) {
            case 0: return "Apps/A\(pick(50))/src/\(file)"
            case 1: return "docs/guide/\(file)"
            default: return "Modules/M\(pick(modules + 10))/\(["Sources", "Tests", "Docs"][pick(3)])/\(file)"
            }
        }
        return OwnersShape(name: "late broad rules", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }

    /// Wildcard segments, `**/name/`, `**/a/**/*.ext`, mid-segment wildcards, deep paths, broad rules first.
    static func wildcards(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 11)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var lines = ["* @org/platform", "*.md @org/docs", "**/Docs/ @org/docs"]
        while lines.count < rules {
            let n = lines.count
            switch n % 8 {
            case 0: lines.append("/Modules/*/Sources/*.swift @org/swift\(pick(5))")
            case 1: lines.append("**/v\(pick(30))/**/*.sh @org/ops\(pick(4))")
            case 2: lines.append("/Apps/App\(pick(60))*/api/ @org/api\(pick(9))")
            case 3: lines.append("/Modules/Mod\(pick(100))?/ @org/m\(pick(40))")
            case 4: lines.append("/Modules/*/Resources/**/*.json @org/res\(pick(6))")
            case 5: lines.append("**/Fixtures\(pick(40))/ @org/qa")
            case 6: lines.append("/Modules/Mod\(pick(1000))/Sources/Gen*/ @org/gen\(pick(3))")
            default: lines.append("/services/s\(pick(200))/**/handlers/ @org/svc\(pick(20))")
            }
        }
        let paths = (0..<count).map { number -> String in
            let depth = (0..<pick(6)).map { "d\($0)" }.joined(separator: "/")
            let deep = depth.isEmpty ? "" : depth + "/"
            switch pick(8) {
            case 0: return "Apps/App\(pick(700))/api/\(deep)F\(number).swift"
            case 1: return "services/s\(pick(250))/\(deep)handlers/h\(number).go"
            case 2: return "tools/v\(pick(40))/\(deep)run\(number).sh"
            case 3: return "Modules/Mod\(pick(1000))/Resources/\(deep)R\(number).json"
            case 4: return "Modules/Mod\(pick(1000))/Docs/\(deep)P\(number).md"
            default:
                return "Modules/Mod\(pick(1000))/Sources/\(["Gen1", "Core", "UI"][pick(3)])/\(deep)S\(number).swift"
            }
        }
        return OwnersShape(name: "wildcard segments", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }

    /// Mostly unanchored rules: folder names at any depth, file names, extensions.
    static func unanchored(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 13)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var lines = ["* @org/all"]
        while lines.count < rules {
            switch lines.count % 4 {
            case 0: lines.append("pkg\(pick(400))/ @org/p\(pick(50))")
            case 1: lines.append("Makefile\(pick(100)) @org/build")
            case 2: lines.append("*.e\(pick(200)) @org/e\(pick(20))")
            default: lines.append("lib\(pick(300)) @org/l\(pick(30))")
            }
        }
        let paths = (0..<count).map { number -> String in
            let folders = (0..<(1 + pick(5))).map { _ in
                pick(3) == 0 ? "pkg\(pick(500))" : pick(2) == 0 ? "lib\(pick(400))" : "src\(pick(50))"
            }
            let file = pick(5) == 0 ? "Makefile\(pick(150))" : "f\(number).e\(pick(260))"
            return (folders + [file]).joined(separator: "/")
        }
        return OwnersShape(name: "unanchored names", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }

    /// Deep paths and `**` in the middle: `/a/**/b/**/*.ext`, `src/**/test/`, 8 to 20 levels.
    static func deep(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 17)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var lines = ["* @org/all", "/src/ @org/src"]
        while lines.count < rules {
            switch lines.count % 4 {
            case 0: lines.append("/src/**/k\(pick(300))/**/*.c @org/c\(pick(10))")
            case 1: lines.append("src/**/test\(pick(100))/ @org/t\(pick(10))")
            case 2: lines.append("/src/a\(pick(20))/b\(pick(20))/**/c\(pick(50))/ @org/d\(pick(10))")
            default: lines.append("**/x\(pick(200))/**/*.h @org/h\(pick(10))")
            }
        }
        let paths = (0..<count).map { number -> String in
            let folders = (0..<(8 + pick(13))).map { level -> String in
                switch pick(6) {
                case 0: return "k\(pick(400))"
                case 1: return "x\(pick(300))"
                case 2: return "test\(pick(150))"
                case 3: return "c\(pick(80))"
                default: return level < 2 ? "a\(pick(25))" : "n\(pick(100))"
                }
            }
            return "src/" + folders.joined(separator: "/") + "/f\(number).\(["c", "h", "txt"][pick(3)])"
        }
        return OwnersShape(
            name: "deep paths, ** inside", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }

    /// Made-up words (3 to 8 lowercase letters) that rules and paths share, so some paths hit and most miss.
    static func words(_ count: Int, _ random: inout SplitMix) -> [String] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { _ in
            String((0..<(3 + Int(random.next() % 6))).map { _ in letters[Int(random.next() % 26)] })
        }
    }

    /// Mostly unanchored globs that start with a name (`name_*`, `Dockerfile12*`, `word-*.yml`): no folder or
    /// extension narrows them, and a path's every segment may start with any of them.
    static func prefixGlobs(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 19)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        let vocabulary = words(rules / 2, &random)
        var lines = ["* @org/all"]
        while lines.count < rules {
            let word = vocabulary[pick(vocabulary.count)]
            switch lines.count % 4 {
            case 0: lines.append("\(word)_* @org/p\(pick(50))")
            case 1: lines.append("Dockerfile\(pick(rules))* @org/build")
            case 2: lines.append("\(word)-*.yml @org/ops\(pick(9))")
            default: lines.append("/\(word)*/ @org/top\(pick(30))")
            }
        }
        let paths = (0..<count).map { number -> String in
            let folders = (0..<(1 + pick(5))).map { _ in
                pick(3) == 0 ? vocabulary[pick(vocabulary.count)] + "_\(pick(9))" : "src\(pick(40))"
            }
            let file: String
            switch pick(4) {
            case 0: file = "Dockerfile\(pick(rules * 2))"
            case 1: file = "\(vocabulary[pick(vocabulary.count)])-\(number).yml"
            default: file = "f\(number).\(["c", "py", "yml"][pick(3)])"
            }
            return (folders + [file]).joined(separator: "/")
        }
        return OwnersShape(name: "prefix globs", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }

    /// Globs keyed by a word in the middle of a name (`*tok*`, `/src/**/*tok*.ts`, `**/*tok*/`): no fixed part
    /// of the path holds them.
    static func substringGlobs(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 23)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        let vocabulary = words(rules, &random)
        var lines = ["* @org/all", "*.ts @org/web"]
        while lines.count < rules {
            let word = vocabulary[pick(vocabulary.count)]
            switch lines.count % 3 {
            case 0: lines.append("*\(word)* @org/s\(pick(40))")
            case 1: lines.append("/src/**/*\(word)*.ts @org/web\(pick(12))")
            default: lines.append("**/*_\(word)/ @org/f\(pick(20))")
            }
        }
        let paths = (0..<count).map { number -> String in
            let folders = (0..<(1 + pick(6))).map { _ in
                pick(4) == 0 ? "x_\(vocabulary[pick(vocabulary.count)])" : "m\(pick(60))"
            }
            let stem = pick(2) == 0 ? vocabulary[pick(vocabulary.count)] : "file"
            let file = "\(["use", "get", "the"][pick(3)])\(stem)\(number).\(["ts", "js", "css"][pick(3)])"
            return ((pick(2) == 0 ? ["src"] : ["lib"]) + folders + [file]).joined(separator: "/")
        }
        return OwnersShape(name: "substring globs", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }

    /// Nothing but extensions (`*.e123`, `*.tar.gz`): one segment of every path decides.
    static func extensionsOnly(rules: Int, paths count: Int) -> OwnersShape {
        var random = SplitMix(seed: 29)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var lines = ["* @org/all"]
        while lines.count < rules {
            lines.append(lines.count % 5 == 0 ? "*.x\(pick(rules)).gz @org/z" : "*.e\(pick(rules)) @org/e\(pick(40))")
        }
        let paths = (0..<count).map { number -> String in
            let folders = (0..<pick(5)).map { _ in "d\(pick(100))" }
            let file = pick(5) == 0 ? "f\(number).x\(pick(rules)).gz" : "f\(number).e\(pick(rules * 2))"
            return (folders + [file]).joined(separator: "/")
        }
        return OwnersShape(name: "extensions only", codeowners: lines.joined(separator: "\n") + "\n", paths: paths)
    }
}
