print("authsh")
