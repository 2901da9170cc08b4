run tests/hostile/input_truncated.py --input x=build/hostile/x_trunc.npy --params build/hostile/w_ok.npz --via tcc
