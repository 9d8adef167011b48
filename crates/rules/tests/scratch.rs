use palabre_rules::nsolo::*;
#[test]
fn quick() {
    for n in [8u8, 9, 10, 12, 36] {
        let p = Position::start(n).unwrap();
        println!("{n} {}", perft(&p, 1));
    }
    let p = Position::start(8).unwrap();
    println!("d2 {}", perft(&p, 2));
    let p: Position = "1,1,1,1,1,1,1,1/0,2,0,0,0,0,0,0/1,0,3,0,1,0,1,0/0,1,0,2,3,2,4,1 s".parse().unwrap();
    println!("{:?}", p.legal_origins().iter().map(|o| o.pit.to_string()).collect::<Vec<_>>());
    println!("{}", p);
    let n = p.legal_moves().count();
    println!("{n} {}", p.count_moves());
    let p = Position::start(8).unwrap();
    println!("{} {}", p.legal_moves().count(), p.legal_moves().take(3).map(|m| m.to_string()).collect::<Vec<_>>().join(" "));
}
