//! Local games through the worker's API, natively: the same JSON strings the
//! browser sends, and the same answers.

use palabre_wasm::bindings::Engine;
use serde_json::{Value, json};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("the engine answers JSON")
}

fn create(engine: &Engine, spec: Value) -> Value {
    let v = parse(&engine.create(&spec.to_string()));
    assert!(v.get("error").is_none(), "{v}");
    v
}

/// A new engine and the game `spec` creates on it.
fn start(spec: Value) -> (Engine, Value) {
    let engine = Engine::new();
    let v = create(&engine, spec);
    (engine, v)
}

fn game_of(v: &Value) -> String {
    v["game"].to_string()
}

fn first_legal(state: &Value) -> String {
    let l = &state["legal"][0];
    l.get("move")
        .or_else(|| l.get("pit"))
        .and_then(Value::as_str)
        .expect("a legal move")
        .to_owned()
}

#[test]
fn a_whole_yote_game_against_the_machine_ends_with_a_result() {
    let mut engine = Engine::new();
    let mut v = create(
        &engine,
        json!({"id": "L1", "game": "yote", "opponent": "machine", "level": "debutant", "side": "red", "seed": 7}),
    );
    assert_eq!(
        v["state"]["players"],
        json!({"red": "human", "black": "machine"})
    );
    let mut plies = 0;
    while v["state"]["result"].is_null() {
        let state = &v["state"];
        assert_eq!(
            state["turn"], "red",
            "the person moves when the page may play"
        );
        let ply = state["ply"].as_u64().unwrap() as usize;
        let mv = first_legal(state);
        v = parse(&engine.play(&game_of(&v), &mv, ply));
        assert!(v.get("error").is_none(), "{v}");
        assert_eq!(v["state"]["ply"], ply + 1);
        if v["state"]["result"].is_null() {
            assert_eq!(v["state"]["thinking"], true);
            assert_eq!(
                v["state"]["legal"],
                json!([]),
                "no moves offered on the machine's turn"
            );
            v = parse(&engine.reply(&game_of(&v)));
            assert!(v["move"].is_string(), "{v}");
        }
        plies += 2;
        assert!(plies < 600, "the game ends");
    }
    assert_eq!(v["state"]["status"], "finished");
    assert!(v["state"]["result"]["reason"].is_string());
    let moves = v["game"]["moves"].as_array().unwrap().len();
    assert_eq!(v["state"]["moves"].as_array().unwrap().len(), moves);
}

#[test]
fn the_state_has_the_servers_members_and_shows_the_last_move() {
    let (engine, v) = start(json!({"id": "L2", "game": "nsolo", "size": 8, "opponent": "local"}));
    let state = &v["state"];
    for key in [
        "id",
        "game",
        "size",
        "opponent",
        "level",
        "players",
        "fen",
        "ply",
        "turn",
        "moves",
        "thinking",
        "result",
        "draw_offer",
        "draw_declined",
        "takeback_offer",
        "legal",
        "refusals",
        "last",
        "status",
        "time_control",
        "team_size",
        "clocks",
        "running",
        "rematch",
        "nsolo",
    ] {
        assert!(state.get(key).is_some(), "missing {key}");
    }
    assert_eq!(state["nsolo"]["rows"]["A"].as_array().unwrap().len(), 8);
    // A sowing without a capture needs no bonus pits after it.
    let quiet = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["capture"].is_null());
    let pit = quiet
        .and_then(|l| l["pit"].as_str())
        .expect("a quiet sowing")
        .to_owned();
    let after = parse(&engine.play(&game_of(&v), &pit, 0));
    assert!(after.get("error").is_none(), "{after}");
    assert_eq!(
        after["state"]["last"]["move"]
            .as_str()
            .unwrap()
            .split('+')
            .next(),
        Some(pit.as_str())
    );
    assert!(
        after["state"]["last"]["animation"]["steps"]
            .as_array()
            .unwrap()
            .len()
            > 1
    );
}

#[test]
fn a_refused_action_says_why_and_changes_nothing() {
    let (engine, v) = start(json!({"id": "L3", "game": "yote", "opponent": "local"}));
    let game = game_of(&v);
    let code = |text: String| parse(&text)["error"]["code"].as_str().unwrap().to_owned();
    assert_eq!(code(engine.play(&game, "zz9", 0)), "malformed_move");
    assert_eq!(code(engine.play(&game, "a1-a2", 0)), "illegal_move");
    assert_eq!(code(engine.play(&game, "a1", 3)), "stale_ply");
    assert_eq!(code(engine.take_back(&game)), "nothing_to_take_back");
    assert_eq!(code(engine.create("{\"game\":\"chess\"}")), "bad_request");
    assert_eq!(code(engine.state("not json")), "bad_request");
}

#[test]
fn take_back_against_the_machine_returns_to_the_persons_turn() {
    let (mut engine, v) = start(
        json!({"id": "L4", "game": "yote", "opponent": "machine", "level": "intermediaire", "side": "red"}),
    );
    let v = parse(&engine.play(&game_of(&v), "c3", 0));
    let v = parse(&engine.reply(&game_of(&v)));
    assert_eq!(v["state"]["ply"], 2);
    let back = parse(&engine.take_back(&game_of(&v)));
    assert_eq!(back["state"]["ply"], 0);
    assert_eq!(back["state"]["turn"], "red");
}

#[test]
fn draws_and_resignations_on_one_screen() {
    let (mut engine, v) = start(json!({"id": "L5", "game": "yote", "opponent": "local"}));
    let offered = parse(&engine.draw(&game_of(&v), "offer"));
    assert_eq!(offered["state"]["draw_offer"], "red");
    let declined = parse(&engine.draw(&game_of(&offered), "decline"));
    assert_eq!(declined["state"]["draw_declined"], true);
    assert_eq!(declined["state"]["draw_offer"], Value::Null);
    let offered = parse(&engine.draw(&game_of(&declined), "offer"));
    let agreed = parse(&engine.draw(&game_of(&offered), "accept"));
    assert_eq!(
        agreed["state"]["result"],
        json!({"winner": null, "reason": "agreement"})
    );
    let resigned = parse(&engine.resign(&game_of(&v), Some("black".into())));
    assert_eq!(
        resigned["state"]["result"],
        json!({"winner": "red", "reason": "resignation"})
    );
}

#[test]
fn the_machine_declines_a_draw_in_the_opening() {
    let (mut engine, v) = start(
        json!({"id": "L6", "game": "yote", "opponent": "machine", "level": "expert", "side": "red"}),
    );
    let answer = parse(&engine.draw(&game_of(&v), "offer"));
    assert_eq!(answer["state"]["draw_declined"], true);
    assert!(answer["state"]["result"].is_null());
}

#[test]
fn frames_and_hints_speak_the_rules_notation() {
    let (mut engine, v) = start(json!({"id": "L7", "game": "yote", "opponent": "local"}));
    let v = parse(&engine.play(&game_of(&v), "c3", 0));
    let frames = parse(&engine.frames(&game_of(&v)));
    assert_eq!(frames["frames"].as_array().unwrap().len(), 2);
    assert_eq!(frames["frames"][1]["last"]["move"], "c3");
    let hint = parse(&engine.hint(&game_of(&v)));
    let legal: Vec<&str> = v["state"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["move"].as_str())
        .collect();
    assert!(legal.contains(&hint["move"].as_str().unwrap()), "{hint}");
}

#[test]
fn think_answers_a_legal_move_for_a_position_and_its_moves() {
    let mut engine = Engine::new();
    let answer = parse(&engine.think("yote", "5/5/5/5/5 12 12 r 0", "[\"c3\"]", "confirme", 0, 2));
    assert_eq!(answer["depth"], 2, "{answer}");
    let v = create(
        &engine,
        json!({"id": "L8", "game": "yote", "opponent": "local"}),
    );
    let v = parse(&engine.play(&game_of(&v), "c3", 0));
    let legal: Vec<&str> = v["state"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["move"].as_str())
        .collect();
    assert!(legal.contains(&answer["move"].as_str().unwrap()));
    let bad = parse(&engine.think(
        "yote",
        "5/5/5/5/5 12 12 r 0",
        "[\"c3\", \"c3\"]",
        "expert",
        10,
        0,
    ));
    assert_eq!(bad["error"]["code"], "damaged");
}
