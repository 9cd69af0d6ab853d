use pegsol::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let b = Board::builtin(&a[1]).unwrap();
    let start = b.holes().minus(b.hole_set(&a[2]).unwrap());
    let t = b.hole_set(&a[3]).unwrap();
    let tm = std::time::Instant::now();
    let p = Pagoda::fit(&b, start, t);
    println!("{:?}", tm.elapsed());
    if let Some(p) = p {
        println!("start {} finish {}", p.total(start), p.total(t));
        let w = p.weights().to_vec();
        print!(
            "{}",
            b.draw_with(|h| std::char::from_digit((w[h.index()] % 36) as u32, 36).unwrap())
        );
        println!("{:?}", w);
    } else {
        println!("none");
    }
}
