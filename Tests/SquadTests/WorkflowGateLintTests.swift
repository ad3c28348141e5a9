import Foundation
import Testing

/// Two rules zizmor and actionlint hold the workflows to (`Scripts/lint-workflows` runs both), checked here as well so
/// that `swift test` catches them without the linters: an action from another repository is named by a full commit
/// hash with its version in a comment (the form Dependabot keeps current), and no `run:` expands `${{ … }}`, which
/// would paste whatever a pull request or a branch names into the shell script (values go through `env:`).
extension WorkflowGateTests {
    /// Where a workflow's text breaks either rule, one line each (`line 12: …`); empty when it keeps both.
    static func pinAndInjectionFindings(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var findings: [String] = []
        for (index, line) in lines.enumerated() {
            // The key after the indentation and any `- ` that opens a list item, and the column it starts at.
            var column = line.prefix { $0 == " " }.count
            var rest = Substring(line.dropFirst(column))
            if rest.hasPrefix("- ") {
                rest = rest.dropFirst(2)
                column += 2
            }
            if rest.hasPrefix("uses:") {
                let value = rest.dropFirst(5).trimmingCharacters(in: .whitespaces)
                if !value.hasPrefix("$/")
                    && value.range(of: pinnedUses, options: .regularExpression) == nil
                {
                    findings.append("line \(index + 1): not pinned to a commit with its version: \(value)")
                }
            } else if rest.hasPrefix("run:") {
                // The value is the rest of the line and every following line indented deeper than the key (a block
                // scalar or a folded plain one), up to the first that is not.
                var value = [String(rest.dropFirst(4))]
                for next in lines[(index + 1)...] {
                    let indent = next.prefix { $0 == " " }.count
                    if indent <= column && !next.allSatisfy({ $0 == " " }) { break }
                    value.append(next)
                }
                if value.contains(where: { $0.contains("${{") }) {
                    findings.append("line \(index + 1): a run script expands ${{ … }}; pass the value through env:")
                }
            }
        }
        return findings
    }

    /// `owner/repo[/path]@<40 hex> # v1[.2[.3]]`; a same-repository reference (`$/…`) is taken at the running commit.
    static let pinnedUses = #"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[^@\s]+)?@[0-9a-f]{40} # v[0-9]+(\.[0-9]+)*$"#

    @Test func everyActionIsPinnedAndNoRunScriptExpandsATemplate() throws {
        let all = try Self.workflows()
        #expect(all.count >= 5)
        for workflow in all {
            #expect(Self.pinAndInjectionFindings(in: workflow.text) == [], "\(workflow.name)")
        }
    }

    /// The checker itself: each sample breaks a rule and is named, at its line.
    @Test(arguments: [
        ("      - uses: actions/checkout@v4\n", 1),
        ("      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1\n", 1),
        ("      - uses: actions/checkout@3d3c42e # v7.0.1\n", 1),
        ("      - uses: actions/checkout@main # 3d3c42e5aac5ba805825da76410c181273ba90b1\n", 1),
        ("    uses: ./.github/workflows/code-owner-gate.yml\n", 1),
        ("      - uses: docker://alpine:3\n", 1),
        ("      - run: echo ${{ github.head_ref }}\n", 1),
        (
            "      - name: log\n        run: |\n          git log\n"
                + "          echo \"${{ github.event.pull_request.title }}\"\n", 2
        ),
        ("      - id: x\n        run: >-\n          echo\n\n          ${{ inputs.x }}\n        env: {}\n", 2),
    ])
    func theCheckerNamesAnUnpinnedActionOrATemplateInRun(sample: String, line: Int) {
        let findings = Self.pinAndInjectionFindings(in: sample)
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.hasPrefix("line \(line): ") == true, "\(findings)")
    }

    /// What the rules allow: a pinned action with its version, a same-repository reference, and a value that
    /// reaches the script through `env:`, whose `${{ … }}` sits beside `run:`, not inside it.
    @Test func theCheckerAcceptsPinsAndValuesPassedThroughEnv() {
        let sample = """
            jobs:
              gate:
                uses: $/.github/workflows/code-owner-gate.yml
                with:
                  pull-request: ${{ github.event.pull_request.number }}
              record:
                steps:
                  - uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0
                    with:
                      name: reviews-${{ inputs.head-sha }}
                  - run: echo "$PR"
                    env:
                      PR: ${{ github.event.pull_request.number }}
                  - name: Test ${{ matrix.group.name }}
                    run: |
                      Scripts/test-clean --filter "$FILTER"

                    env:
                      FILTER: ${{ matrix.group.filter }}

            """
        #expect(Self.pinAndInjectionFindings(in: sample) == [])
    }
}
