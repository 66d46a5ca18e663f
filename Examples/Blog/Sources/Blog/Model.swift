// The blog's model, as `perf-run model import Model/Blog.xcdatamodeld --swift` prints it
// (BlogTests checks that it still does). Post.theme, a transformable, is not in it.

import ObjectGraph

let model = try! Model([
    Entity("Author", properties: [
        .attribute("name", .string),
        .attribute("joined", .date, optional: true),
        .toMany("posts", "Post", inverse: "author", deleteRule: .cascade),
    ], uniquenessConstraints: [["name"]]),
    Entity("Post", properties: [
        .attribute("title", .string),
        .attribute("body", .string, optional: true),
        .attribute("published", .bool, default: .bool(false)),
        .attribute("likes", .int32, default: .integer(0), indexed: true),
        .derived("commentCount", .int64, .count("comments")),
        .toOne("author", "Author", inverse: "posts"),
        .toMany("comments", "Comment", inverse: "post", deleteRule: .cascade),
        .toMany("tags", "Tag", inverse: "posts"),
    ]),
    Entity("Comment", properties: [
        .attribute("text", .string),
        .toOne("post", "Post", inverse: "comments"),
    ]),
    Entity("Tag", properties: [
        .attribute("name", .string, indexed: true),
        .toMany("posts", "Post", inverse: "tags"),
    ]),
])
