#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A Swift package keeps its tests in `Tests/` (Swift Package Manager's
# layout: `Tests/LibTests/LibTests.swift`), a .NET solution in a test
# project beside the code (`src/Parser.Tests/ParserTests.cs`). The task
# fixes the code and writes the test there, as the project does: the test
# directories were matched in lower case only (`tests/`), so
# regression-tested was owed, "None of the 2 paths changed since the start
# is a test path", and the way out the evidence offers, `[tests] paths` in
# the policy, is a loosening not in force during the task: owed for good.
# Test directories are now told in any case, and a test project by its
# name's ending (`.Tests`, `.Test`, `.UnitTests`, `.IntegrationTests`).

mkdir -p Sources/Lib Tests/LibTests .ai/repo
echo 'public func f() -> Int { 1 }' > Sources/Lib/Lib.swift
printf 'import XCTest\n@testable import Lib\nfinal class LibTests: XCTestCase {\n  func testF() { XCTAssertEqual(f(), 1) }\n}\n' > Tests/LibTests/LibTests.swift
printf '[gates.unit]\nrun = "true"\ninputs = ["**"]\n' > .ai/repo/majordomus.toml
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "f returns 2"
echo 'public func f() -> Int { 2 }' > Sources/Lib/Lib.swift
printf 'import XCTest\n@testable import Lib\nfinal class LibTests: XCTestCase {\n  func testF() { XCTAssertEqual(f(), 2) }\n}\n' > Tests/LibTests/LibTests.swift
expect_run 0 md gate run unit
commit_all "f: 2"
git push -q origin main
expect_answer regression-tested pass "Tests/LibTests/LibTests.swift"
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
expect_run 0 md finish --outcome completed

# A .NET test project beside the code.
mkdir -p src/Parser src/Parser.Tests
echo 'class Parser { int Limit => 1; }' > src/Parser/Parser.cs
commit_all "parser"
git push -q origin main
expect_run 0 md start "raise the limit"
echo 'class Parser { int Limit => 2; }' > src/Parser/Parser.cs
echo '[Fact] public void Limit() => Assert.Equal(2, new Parser().Limit);' > src/Parser.Tests/ParserTests.cs
commit_all "parser: limit 2"
expect_answer regression-tested pass "src/Parser.Tests/ParserTests.cs"

# Still no test: the fix alone, or a file in a directory merely named so.
git reset -q --hard HEAD~1
echo 'class Parser { int Limit => 3; }' > src/Parser/Parser.cs
mkdir -p api.spec src/Latest
echo 'openapi: 3.0.0' > api.spec/openapi.yaml
echo 'x' > src/Latest/notes.cs
commit_all "parser: limit 3"
expect_open regression-tested "None of the 3 paths changed since the start is a test path" owed
