class utils:
    @staticmethod
    def batch_space(space, n):
        return ("batched", space, n)
