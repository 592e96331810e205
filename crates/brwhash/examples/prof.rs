use brwhash::{Algorithm, Key};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let alg: Algorithm = args[1].parse().unwrap();
    let len: usize = args[2].parse().unwrap();
    let n: usize = args[3].parse().unwrap();
    let key = Key::new(alg, &vec![0xa5; alg.key_len()]).unwrap();
    let msg = vec![0x5a; len];
    let mut acc = 0u8;
    for _ in 0..n {
        acc ^= key.hash(&msg).as_ref()[0];
    }
    println!("{acc}");
}
