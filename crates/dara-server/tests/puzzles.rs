//! `GET /api/puzzles` and `/puzzles` over real HTTP: the embedded puzzles, each solution legal
//! by the server's own judge.

mod common;

use serde_json::{json, Value};

#[tokio::test]
async fn the_puzzles_are_served_and_every_solution_is_legal_where_it_is_asked() {
    let addr = common::start(common::test_config()).await;
    let puzzles: Vec<Value> =
        reqwest::get(format!("http://{addr}/api/puzzles")).await.unwrap().json().await.unwrap();
    assert!(!puzzles.is_empty());
    for difficulty in 1..=3 {
        assert!(
            puzzles.iter().any(|p| p["difficulty"] == difficulty),
            "no puzzle of difficulty {difficulty}"
        );
    }
    for p in &puzzles {
        let solution = &p["line"][0];
        let (status, answer) = common::post(
            addr,
            "/api/position",
            json!({ "position": p["position"], "rules": p["rules"], "move": solution }),
        )
        .await;
        assert_eq!(status, 200, "{p}: {answer}");
        assert_eq!(answer["move"]["verdict"], "legal", "{p}: {answer}");
        assert_eq!(&answer["move"]["m"], solution, "solutions are written canonically");
    }
}

#[tokio::test]
async fn the_page_is_served_under_the_sites_content_policy() {
    let addr = common::start(common::test_config()).await;
    for path in ["/puzzles", "/learn"] {
        let response = reqwest::get(format!("http://{addr}{path}")).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let policy = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(policy.contains("style-src 'self'"), "{path}: {policy}");
        assert!(!response.text().await.unwrap().contains("<script>"), "{path}: no inline script");
    }
}
