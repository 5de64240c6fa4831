import OffstageCore

/// The warnings of one scenario being read: the reader's methods are not mutating, so they add here.
final class ScenarioWarnings {
    private(set) var list: [ScenarioError] = []
    func add(_ warning: ScenarioError) { list.append(warning) }
}

/// The nearest name to a misspelled one, for "did you mean…?".
enum Spelling {
    /// The name of `names` fewest edits from `word` (ties: the first in order), if at most `limit` edits away.
    static func nearest(to word: String, among names: some Collection<String>, within limit: Int) -> String? {
        names.sorted().map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension AppManifest {
    /// The Info.plist keys Offstage reads from a manifest.
    static let readKeys: Set<String> = [
        "CFBundleIdentifier", "CFBundleExecutable", "UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers",
        "Entitlements",
    ]
}
