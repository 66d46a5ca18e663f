import Foundation
import TestSupport
import Testing

/// `perf-run model import` and `perf-run model diff`, run as a user runs
/// them: exit codes, one-line reasons, versions.
@Suite struct ModelCommandTests {
    static func perfRun(_ arguments: [String]) throws -> CommandResult { try PerfRunProcess.run(arguments) }

    /// Files under a new temporary folder.
    static func write(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-model-command-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    static let current = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Shop 2.xcdatamodel</string></dict></plist>
        """

    static let shopV1 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <model>
            <entity name="Product">
                <attribute name="name" attributeType="String"/>
                <attribute name="price" optional="YES" attributeType="Double" defaultValueString="0"/>
            </entity>
        </model>
        """

    static let shopV2 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <model>
            <entity name="Product">
                <attribute name="name" attributeType="String"/>
                <attribute name="price" attributeType="Decimal" defaultValueString="0"/>
                <relationship name="shelf" optional="YES" maxCount="1" destinationEntity="Shelf" inverseName="products"/>
            </entity>
            <entity name="Shelf">
                <relationship name="products" optional="YES" toMany="YES" destinationEntity="Product" inverseName="shelf"/>
            </entity>
        </model>
        """

    static func shop() throws -> String {
        try write([
            "Shop.xcdatamodeld/Shop.xcdatamodel/contents": shopV1,
            "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents": shopV2,
            "Shop.xcdatamodeld/.xccurrentversion": current,
        ]).appendingPathComponent("Shop.xcdatamodeld").path
    }

    // MARK: model import

    /// A model of which nothing is made exits 1, saying why (README: "a
    /// model of which nothing can be made exits 1").
    @Test(arguments: [
        ("<model/>", "the model has no entities"),
        ("<model type=\"com.apple.IDECoreDataModeler.DataModel\"></model>", "the model has no entities"),
        ("<model><entity name=\"Base\" isAbstract=\"YES\"><attribute name=\"id\" attributeType=\"UUID\"/></entity></model>",
         "its only entities are abstract (Base): no object can be inserted"),
    ])
    func aModelThatMakesNothingExitsOne(text: String, error: String) throws {
        let path = try Self.write(["contents": text]).appendingPathComponent("contents").path
        let result = try Self.perfRun(["model", "import", path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("\nimported:  0 entities, 0 attributes, 0 relationships\n"))
        #expect(result.stdout.contains("\nerror:     \(error)\n"))
        let swift = try Self.perfRun(["model", "import", path, "--swift"])
        #expect(swift.status == 1)
        #expect(!swift.stdout.contains("Model(["))
        let json = try Self.perfRun(["model", "import", path, "--json"])
        #expect(json.status == 1)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(decoded?["error"] as? String == error)
    }

    @Test func aParentEntityCoreDataWouldRefuseExitsTwoNamingFileEntityAndProblem() throws {
        let path = try Self.write(["contents": """
            <model>
                <entity name="A" parentEntity="B"/>
                <entity name="B" parentEntity="A"/>
            </model>
            """]).appendingPathComponent("contents").path
        let result = try Self.perfRun(["model", "import", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(path):2:38: entity A: parentEntity makes a cycle: A → B → A\n")
    }

    @Test func aFileThatIsNotXMLExitsTwoWithASentence() throws {
        let path = try Self.write(["contents": "<model>\n  <entity name=\"Caf&eacute;\"/>\n</model>"]).appendingPathComponent("contents").path
        let result = try Self.perfRun(["model", "import", path])
        #expect(result.status == 2)
        #expect(result.stderr == "\(path):2:28: not well-formed XML: an entity reference (&…;) to an entity that is not declared "
            + "(XML knows &lt; &gt; &amp; &quot; &apos;)\n")
    }

    @Test func theCurrentVersionIsImportedUnlessAnotherIsNamed() throws {
        let model = try Self.shop()
        let current = try Self.perfRun(["model", "import", model])
        #expect(current.status == 0)
        #expect(current.stdout.hasPrefix("model:     \(model)/Shop 2.xcdatamodel/contents (current of 2 versions)\n"
            + "imported:  2 entities, 2 attributes, 2 relationships\n"))
        for arguments in [[model, "--model-version", "Shop"], [model + ":Shop"], [model + ":Shop", "--model-version", "Shop.xcdatamodel"]] {
            let first = try Self.perfRun(["model", "import"] + arguments)
            #expect(first.status == 0, "\(arguments): \(first.stderr)")
            #expect(first.stdout == "model:     \(model)/Shop.xcdatamodel/contents (version 1 of 2; the current one is Shop 2)\n"
                + "imported:  1 entities, 2 attributes, 0 relationships\n", "\(arguments)")
        }
        let unknown = try Self.perfRun(["model", "import", model, "--model-version", "Shop 3"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "--model-version: \(model) has no version Shop 3 (its versions: Shop, Shop 2)\n")
        let unknownAfterColon = try Self.perfRun(["model", "import", model + ":Shop 3"])
        #expect(unknownAfterColon.status == 2)
        #expect(unknownAfterColon.stderr == "\(model) has no version Shop 3 (its versions: Shop, Shop 2)\n")
        let single = try Self.perfRun(["model", "import", model + "/Shop.xcdatamodel", "--model-version", "Shop"])
        #expect(single.status == 2)
        #expect(single.stderr == "--model-version: \(model)/Shop.xcdatamodel has no versions (only a .xcdatamodeld has): there is no version Shop\n")
        // --version is the model's version here, never the tool's, even
        // when the model is missing.
        let noModel = try Self.perfRun(["model", "import", "--version", "Shop"])
        #expect(noModel.status == 2)
        #expect(noModel.stdout.isEmpty)
        #expect(noModel.stderr == "Missing expected argument '<path>'\n")
        let twice = try Self.perfRun(["model", "import", model + ":Shop", "--model-version", "Shop 2"])
        #expect(twice.status == 2)
        #expect(twice.stderr == "--model-version: Shop 2: \(model):Shop already names a version; give it once\n")
    }

    /// `--version` was the model version's option and shadowed the tool's
    /// own: it still reads the version, with a warning; given with
    /// `--model-version` it is bad usage.
    @Test func theModelVersionsEarlierSpellingStillWorksWithAWarning() throws {
        let model = try Self.shop()
        let renamed = try Self.perfRun(["model", "import", model, "--model-version", "Shop"])
        let earlier = try Self.perfRun(["model", "import", model, "--version", "Shop"])
        #expect(renamed.status == 0 && earlier.status == 0)
        #expect(earlier.stdout == renamed.stdout)
        #expect(renamed.stderr.isEmpty)
        #expect(earlier.stderr == "--version is deprecated for model import (it is the tool's own): use --model-version\n")
        let unknown = try Self.perfRun(["model", "import", model, "--version", "Shop 3"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "--version is deprecated for model import (it is the tool's own): use --model-version\n"
            + "--version: \(model) has no version Shop 3 (its versions: Shop, Shop 2)\n")
        let both = try Self.perfRun(["model", "import", model, "--version", "Shop", "--model-version", "Shop"])
        #expect(both.status == 2)
        #expect(both.stderr == "--version is --model-version's earlier spelling: give --model-version alone\n")
        // The tool's own --version is the tool's.
        let tool = try Self.perfRun(["--version"])
        #expect(tool.status == 0 && !tool.stdout.isEmpty)
        let help = try Self.perfRun(["model", "import", "--help"])
        #expect(help.stdout.contains("--model-version <name>") && !help.stdout.contains("--version <"))
    }

    /// A table may have at most SQLite's 2000 columns: an entity of 10,000
    /// attributes is skipped with its reason, and explain works on the rest
    /// instead of failing with SQLite's "too many columns".
    @Test func anEntityTooWideForSQLiteIsSkippedAndExplainWorksOnTheRest() throws {
        var text = "<model>\n    <entity name=\"Wide\">\n"
        for number in 0..<10_000 { text += "        <attribute name=\"a\(number)\" optional=\"YES\" attributeType=\"String\"/>\n" }
        text += "    </entity>\n    <entity name=\"Narrow\"><attribute name=\"name\" attributeType=\"String\"/></entity>\n</model>\n"
        let path = try Self.write(["contents": text]).appendingPathComponent("contents").path
        let result = try Self.perfRun(["model", "import", path])
        #expect(result.status == 0)
        #expect(result.stdout == "model:     \(path)\nimported:  1 entities, 1 attributes, 0 relationships\nskipped:\n"
            + "  Wide: its table would have 10001 columns, more than SQLite's limit of 2000 per table (SQLITE_MAX_COLUMN): split the entity (line 2)\n")
        let explained = try Self.perfRun(["explain", "Narrow", "name == 'Narrow.name 1'", "--model", path, "--scale", "0.01"])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(!explained.stderr.contains("too many columns"))
        let wide = try Self.perfRun(["explain", "Wide", "a1 == 'x'", "--model", path, "--scale", "0.01"])
        #expect(wide.status == 2)
        #expect(wide.stderr == "\(path) has no entity Wide (Narrow)\n")
    }

    // MARK: model diff

    @Test func identicalModelsExitZeroAndDifferentOnesOne() throws {
        let model = try Self.shop()
        let same = try Self.perfRun(["model", "diff", model, model + ":Shop 2"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == "a: \(model), version Shop 2 (\(model)/Shop 2.xcdatamodel/contents)\n"
            + "b: \(model), version Shop 2 (\(model)/Shop 2.xcdatamodel/contents)\n"
            + "no differences: the models declare the same entities, attributes and relationships\n")
        let lines = [
            "~ attribute Product.price: type Double → Decimal; optional YES → NO",
            "+ relationship Product.shelf (to-one Shelf, inverse products, optional, Nullify)",
            "+ entity Shelf (0 attributes, 1 relationship)",
            "2 added, 0 removed, 1 changed",
        ]
        for arguments in [[model + ":Shop", model], [model, model, "--version-a", "Shop"], [model, model + ":Shop 2", "--version-a", "Shop"]] {
            let different = try Self.perfRun(["model", "diff"] + arguments)
            #expect(different.status == 1, "\(arguments): \(different.stderr)")
            #expect(different.stdout.hasPrefix("a: \(model), version Shop (\(model)/Shop.xcdatamodel/contents)\n"
                + "b: \(model), version Shop 2 (\(model)/Shop 2.xcdatamodel/contents)\n"), "\(arguments)")
            #expect(different.stdout.hasSuffix(lines.joined(separator: "\n") + "\n"), "\(different.stdout)")
        }
        let json = try Self.perfRun(["model", "diff", model, model, "--version-a", "Shop", "--json"])
        #expect(json.status == 1)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(decoded["identical"] as? Bool == false)
        #expect((decoded["a"] as? [String: Any])?["version"] as? String == "Shop")
        #expect((decoded["changes"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["changed", "added", "added"])
    }

    @Test func badInputToDiffExitsTwo() throws {
        let model = try Self.shop()
        let broken = try Self.write(["contents": "<model><entity name=\"A\">"]).appendingPathComponent("contents").path
        let cases: [([String], String)] = [
            ([model, model, "--version-b", "Shop 9"], "--version-b: \(model) has no version Shop 9 (its versions: Shop, Shop 2)\n"),
            ([model + ":Nope", model], "\(model) has no version Nope (its versions: Shop, Shop 2)\n"),
            ([model + ":Shop", model, "--version-a", "Shop 2"], "--version-a: Shop 2: \(model):Shop already names a version; give it once\n"),
            ([model, broken], "\(broken):1:25: not well-formed XML: the document ends before <entity> is closed\n"),
            (["/nonexistent/A.xcdatamodeld", model], "/nonexistent/A.xcdatamodeld: no such file or directory\n"),
        ]
        for (arguments, message) in cases {
            let result = try Self.perfRun(["model", "diff"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == message)
            #expect(result.stdout.isEmpty)
        }
        let missing = try Self.perfRun(["model", "diff", model])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("Missing expected argument '<b>'"))
    }

    /// A real model whose entities inherit from an abstract parent
    /// (duckduckgo's bookmarks): imported one to one, and a predicate
    /// through a relationship whose destination is a subentity, on the
    /// subentity's inherited attribute, runs on its data set.
    @Test func explainFollowsARelationshipThroughAnInheritedAttributeOfARealModel() throws {
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ModelImportTests/Fixtures/coredata-models/14-duckduckgo-iOS-BookmarksAndFolders/BookmarksAndFolders.xcdatamodeld").path
        let imported = try Self.perfRun(["model", "import", model])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("\nimported:  3 entities (2 inheriting, 1 abstract), 3 attributes, 2 relationships\n"))
        let result = try Self.perfRun(["explain", "BookmarkManagedObject", "parent.title == 'BookmarkFolderManagedObject.title 1'", "--model", model])
        #expect(result.status == 0, "\(result.stderr)")
        // The subentity's rows in its root's table, joined to its parent folder's row.
        #expect(result.stdout.contains("FROM \"BookmarkItemManagedObject\" t0 LEFT JOIN \"BookmarkItemManagedObject\" t1 ON t1.pk = t0.\"parent_pk\" WHERE t0.ent = 2 AND t1.\"title\" = ?"))
        #expect(result.stdout.contains("matches:   1 of 100 BookmarkManagedObject objects"))
    }

    // MARK: model import --swift

    /// The corpus model at `folder` under Tests/ModelImportTests/Fixtures/coredata-models.
    static func corpusModel(_ folder: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ModelImportTests/Fixtures/coredata-models/\(folder)").path
    }

    /// The classes printed are those committed in Tests/GeneratedModels
    /// (which GeneratedModelTests run), byte for byte, run after run.
    @Test func theSwiftSourceIsTheCommittedClassesAndTheSameEachRun() throws {
        let model = Self.corpusModel("09-Apress-pro-ios-persistence-BookStore/BookStore.xcdatamodeld")
        let first = try Self.perfRun(["model", "import", model, "--swift"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "1 skipped, 2 changed: perf-run model import \(model) says which\n")
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GeneratedModels/BookStoreModel.swift")
        #expect(first.stdout == (try String(contentsOf: committed, encoding: .utf8)))
        let second = try Self.perfRun(["model", "import", model, "--swift"])
        #expect(second.stdout == first.stdout)
    }

    @Test func nameGivesTheModelsEnumItsName() throws {
        let model = try Self.shop()
        let named = try Self.perfRun(["model", "import", model, "--swift", "--name", "Catalogue"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.contains("\npublic enum Catalogue {\n"))
        #expect(named.stdout.contains("\npublic protocol CatalogueObject: EntityNamed, KeyPathNamed {}\n"))
        #expect(named.stdout.contains("\npublic final class Product: ManagedObject, CatalogueObject {\n"))
        let derived = try Self.perfRun(["model", "import", model, "--swift"])
        #expect(derived.stdout.contains("\npublic enum ShopModel {\n"))

        for (arguments, reason) in [
            (["--swift", "--name", "my-shop"], "--name my-shop: not a Swift identifier (letters, digits and _, not starting with a digit)"),
            (["--swift", "--name", "Model"], "--name Model: a name the generated source uses for something else"),
            (["--name", "Catalogue"], "--name names the Swift source's model: it needs --swift"),
        ] {
            let refused = try Self.perfRun(["model", "import", model] + arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stdout.isEmpty, "\(arguments)")
            #expect(refused.stderr == reason + "\n", "\(arguments)")
        }
    }

    /// An undeclared entity under a DOCTYPE that names an external subset
    /// (libxml2 calls it a warning) is one line naming the file and exit 2
    /// for every command that reads a model, never a crash.
    @Test func anUndeclaredEntityUnderADoctypeExitsTwoInEveryCommand() throws {
        let path = try Self.write(["contents": """
            <?xml version="1.0"?>
            <!DOCTYPE model SYSTEM "model.dtd">
            <model><entity name="A">&undeclared;</entity></model>
            """]).appendingPathComponent("contents").path
        let sentence = "an entity reference (&…;) to an entity that is not declared (XML knows &lt; &gt; &amp; &quot; &apos;)"
        for arguments in [["model", "import", path], ["model", "diff", path, path], ["explain", "A", "TRUEPREDICATE", "--model", path]] {
            let result = try Self.perfRun(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("\(path):3:"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasSuffix(": not well-formed XML: \(sentence)\n"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.count { $0 == "\n" } == 1, "\(arguments): \(result.stderr)")
        }
    }

    /// A `.xccurrentversion` holding an empty `<dict/>` (as Xcode writes
    /// one) takes an explicit version; without one it says what to do.
    @Test func anEmptyCurrentVersionTakesAnExplicitVersion() throws {
        let root = try Self.write([
            "Shop.xcdatamodeld/Shop.xcdatamodel/contents": Self.shopV1,
            "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents": Self.shopV2,
            "Shop.xcdatamodeld/.xccurrentversion": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n",
        ])
        let model = root.appendingPathComponent("Shop.xcdatamodeld").path
        let chosen = try Self.perfRun(["model", "import", model, "--model-version", "Shop 2"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.hasPrefix("model:     \(model)/Shop 2.xcdatamodel/contents (version 2 of 2; .xccurrentversion names no current one)\n"))
        let colon = try Self.perfRun(["model", "import", model + ":Shop"])
        #expect(colon.status == 0, "\(colon.stderr)")
        let none = try Self.perfRun(["model", "import", model])
        #expect(none.status == 2)
        #expect(none.stderr == "\(model)/.xccurrentversion: names no current version (no _XCCurrentVersionName) and the model has 2 "
            + "(Shop, Shop 2): name one with --model-version or PATH:VERSION\n")
    }
}
