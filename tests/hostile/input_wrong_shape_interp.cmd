run tests/hostile/input_wrong_shape_interp.py --input x=build/hostile/w_ok.npy --params build/hostile/w_ok.npz
