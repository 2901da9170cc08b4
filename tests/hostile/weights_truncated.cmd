compile tests/hostile/weights_truncated.py --params build/hostile/w_trunc.npz -o build/hostile/out
