use brwhash::{Algorithm, Backend, Key};
use std::time::Instant;
#[test]
fn probe() {
    for name in ["polyHash1271", "BRWHash1305", "4-decBRWHash1305", "Hash2L128", "3-2LHash1305"] {
        let alg: Algorithm = name.parse().unwrap();
        let key = vec![7u8; alg.key_len()];
        let t = Instant::now();
        let k = Key::with_backend(alg, &key, Backend::Portable).unwrap();
        let t1 = t.elapsed();
        let d = k.hash(&[1u8; 65]);
        let t2 = t.elapsed();
        let e = brwhash::hash_with_backend(alg, Backend::Portable, &key, &[1u8; 65]).unwrap();
        let t3 = t.elapsed();
        drop(k);
        let t4 = t.elapsed();
        let v = vec![0xa5u8; 100].into_boxed_slice();
        let t5 = t.elapsed();
        drop(v);
        eprintln!("{name}: key {:?} hash65 {:?} oneshot65 {:?} drop {:?} alloc {:?} {}", t1, t2 - t1, t3 - t2, t4 - t3, t5 - t4, d == e);
    }
}
