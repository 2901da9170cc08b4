run tests/hostile/input_wrong_shape.py --input x=build/hostile/w_ok.npy --params build/hostile/w_ok.npz --via tcc
